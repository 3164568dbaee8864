import type { Generated } from 'kysely';

/** Operations tables (migration 0003): cron job runs and health check results. */
export interface OpsTables {
  cron_runs: {
    id: Generated<number>;
    name: string;
    started_at: string;
    finished_at: string | null;
    outcome: 'running' | 'ok' | 'error';
    message: string | null;
  };
  health_checks: {
    id: Generated<number>;
    name: string;
    outcome: 'ok' | 'warn' | 'error';
    message: string | null;
    duration_ms: number | null;
    checked_at: string;
  };
}
