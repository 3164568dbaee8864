/** Errors of the listings module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/listings.json). */
export const listingsErrors = {
  'listings.page_too_far': 'This page is too far back. Narrow the search instead.',
  'listings.city_needs_state': 'A city needs its state.',
  'listings.unknown_state': 'Unknown state.',
  'listings.unknown_city': 'Unknown city.',
  'listings.unknown_listing_type': 'Unknown listing type.',
  'listings.ad_not_found': 'Ad not found.',
  'listings.ad_gone': 'This ad has been removed.',
  'listings.page_not_found': 'There is no such page of results.',
  'field.query': 'search',
  'field.state': 'state',
  'field.city': 'city',
  'field.type': 'listing type',
} as const;
