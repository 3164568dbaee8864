/** Errors of the pricing module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/pricing.json). */
export const pricingErrors = {
  // Prices of ads and bumps.
  'pricing.not_found': 'Price not found.',
  'pricing.price_out_of_range': 'Price must be a whole number of cents from 0 to {{max}}.',
  'pricing.bump_has_no_duration': 'A bump has no duration.',
  'pricing.duration_out_of_range': 'Duration must be 1 to {{max}} days.',
  'pricing.price_changed': 'The price changed since this page was loaded. Check the new price, then pay again: nothing was charged.',
  // Another admin changed the price since this one's screen read it (the request's `from`).
  'pricing.changed_meanwhile': 'This price changed meanwhile: nothing was saved. The list shows it as it is now.',
  // Promo codes (staff).
  'pricing.promo_code_not_found': 'Promo code not found.',
  'pricing.promo_code_taken': 'A promo code with this code already exists.',
  'pricing.promo_amount_out_of_range': 'Amount must be a whole number of cents from 1 to {{max}}.',
  'pricing.promo_max_uses_out_of_range': 'Max uses must be a whole number from 1 to 1,000,000.',
  'pricing.promo_max_uses_below_uses': 'Max uses cannot be below the {{uses}} uses already made.',
  'pricing.promo_expiry_invalid': 'Expiry must be a date (YYYY-MM-DD) or an ISO date and time.',
  'pricing.promo_expiry_past': 'Expiry must be in the future.',
  // Another admin changed the code since this one's form read it (the request's `from`).
  'pricing.promo_code_changed_meanwhile': 'This promo code changed meanwhile: nothing was saved. The list shows it as it is now; edit it again.',
  'field.active': 'active',
  'field.priceCents': 'price',
  'field.durationDays': 'duration',
  'field.amountCents': 'amount',
  'field.maxUses': 'max uses',
  'field.expiresAt': 'expiry',
} as const;
