import type { Generated } from 'kysely';
import type { CronOutcome } from '../../../contract/api/cron.ts';

/** The cron module's table (migrations 0003, 0008, 0019, 0023): one row per run of an in-process job. */
export interface OpsTables {
  cron_runs: {
    id: Generated<number>;
    name: string;
    started_at: string;
    finished_at: string | null;
    outcome: CronOutcome;
    message: string | null;
    /** The message as a code with its figures (JSON Said, migration 0023; null on runs recorded before). */
    says_json: string | null;
    /** The process running it (null on runs recorded before 0019). */
    owner: string | null;
    /** When that process last said it is still running it (real time, ISO). */
    heartbeat_at: string | null;
  };
}
