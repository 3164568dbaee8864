/** Errors of the ads module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/ads.json). */
export const adsErrors = {
  // The post-ad form (PRODUCT §10): each names its field in params.field.
  'ad.listing_type_invalid': 'Listing type must be one of female_esc, female_rub or shemale_esc.',
  'ad.title_length': 'Title must be {{min}}–{{max}} characters.',
  'ad.description_length': 'Description must be {{min}}–{{max}} characters.',
  'ad.age_invalid': 'Age must be 21 to 45, or over 45.',
  'ad.state_required': 'State is required.',
  'ad.city_required': 'City is required.',
  'ad.phone_invalid': 'Phone must be a US number, e.g. +1 212 555 0100.',
  'ad.photos_count': 'Add {{min}} to {{max}} photos.',
  'ad.photos_too_large': 'The photos are larger than {{mb}} MB in total.',
  'ad.screened_wording': 'Your {{field}} contains wording we do not allow ("{{term}}"). Ads must never suggest minors or coercion.',
  'ad.daily_post_limit': 'You can post at most {{max}} ads per day.',
  // Where an ad may be placed.
  'ad.city_not_in_state': 'This city is not in the chosen state.',
  'ad.state_disabled': 'Ads cannot be placed in this state at the moment.',
  'ad.city_disabled': 'Ads cannot be placed in this city at the moment.',
  // The owner's ads: cart, payment, bump, move.
  'ad.not_found': 'Ad not found.',
  'ad.delete_only_unpaid': 'Only unpaid ads in your cart can be deleted.',
  'ad.already_paid': 'This ad is already paid.',
  'ad.bump_not_running': 'Only an ad that shows (approved, running and online) can be bumped.',
  'ad.bump_too_soon': 'This ad was bumped less than a minute ago.',
  'ad.move_not_allowed': 'A rejected, disabled or expired ad cannot be moved.',
  // Editing, renewing and deleting (issue 13).
  'ad.flag_invalid': 'Say yes or no ("true" or "false").',
  'ad.rates_invalid': 'Rates: up to {{max}} lines, each a duration of 15 minutes to 24 hours and a price of $1 to $10,000, one price per duration.',
  'ad.availability_invalid': 'Hours: a start and an end time (HH:MM) for each available weekday.',
  'ad.edit_not_allowed': 'A disabled ad cannot be edited. Contact us.',
  'ad.keep_photo_unknown': 'A photo to keep is not one of this ad’s photos.',
  'ad.changed_meanwhile': 'This ad changed while you were editing it (in another tab?). Reload it and make your changes again.',
  'ad.listing_type_locked': 'The listing type is the one this ad was paid for: post a new ad for another type.',
  'ad.renew_not_allowed': 'Only approved or expired ads can be renewed.',
  'ad.renew_too_soon': 'This ad was renewed less than a minute ago.',
  'ad.delete_not_allowed': 'This ad cannot be deleted now.',
  'field.rates': 'rates',
  'field.availability': 'hours',
  'field.incall': 'incall',
  'field.outcall': 'outcall',
  'field.keepPhotos': 'photos to keep',
  // Staff review.
  'ad.rejection_reason_length': 'A rejection needs a reason of {{min}}–{{max}} characters.',
  'ad.review_own_ad': 'You cannot review your own ad: another admin must.',
  // Labels of the fields a user's own input can name in a message (screening, photo uploads).
  'field.title': 'title',
  'field.description': 'description',
  'field.photos': 'photos',
} as const;
