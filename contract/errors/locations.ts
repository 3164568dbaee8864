/** Errors of the locations module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/locations.json). */
export const locationsErrors = {
  'locations.staff_only': 'Only staff may list disabled locations.',
  'locations.state_not_found': 'State not found.',
  /** `cities`: the first few ids that are not cities of the state, comma-separated. */
  'locations.cities_not_in_state': 'City not found in {{state}}: {{cities}}.',
  'field.stateId': 'state',
  'field.cityIds': 'cities',
  'field.isAll': 'include disabled',
  'field.enabled': 'enabled',
} as const;
