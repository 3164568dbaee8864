/** Errors of the ops module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/ops.json). */
export const opsErrors = {
  // Cron jobs (staff).
  'cron.run_not_found': 'Cron job run not found.',
  'cron.job_unknown': 'There is no cron job named "{{name}}".',
  'cron.job_running': 'The job {{name}} is already running. Wait for it to finish, then try again.',
  'cron.run_in_progress': 'This run of {{name}} is still going: its record can be deleted once it has finished.',
  // GET /uploads/*: a stored picture that is not there (or a path we never hand out).
  'uploads.file_not_found': 'File not found.',
  'analytics.path_invalid': 'Path must start with /.',
} as const;
