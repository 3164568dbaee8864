// Filled in by the cron/health module.
export interface OpsTables {}
