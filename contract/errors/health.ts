/** Errors of the health module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/health.json). */
export const healthErrors = {
  'health.check_not_found': 'Health check result not found.',
} as const;
