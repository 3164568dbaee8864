/** Errors of the health module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/health.json). */
export const healthErrors = {
  'health.check_not_found': 'Health check result not found.',
  'health.result_current': 'This is the newest result of its check: it stands until the next run. Only older results can be deleted.',
  'health.not_recorded': 'The checks ran but could not be recorded: the database cannot be written. Staff were e-mailed about what is failing.',
} as const;
