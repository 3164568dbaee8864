import type { Generated } from 'kysely';
import type { HealthStatus } from '../../../contract/api/health.ts';

/** The health module's tables: one row per check and run (migrations 0003, 0008, 0022); the alerts (0031). */
export interface HealthTables {
  health_checks: {
    id: Generated<number>;
    name: string;
    status: HealthStatus;
    message: string;
    /** The outcome as a code (contract/api/common.ts Said), JSON; null on results from before 0022. */
    says_json: string | null;
    duration_ms: number;
    checked_at: string;
  };
  /** A failing check staff are being (alerted_at null) or were e-mailed about; deleted once it is ok again. */
  health_alerts: {
    name: string;
    /** Who holds the row: a random id per sending batch. */
    claim: string;
    claimed_at: string;
    alerted_at: string | null;
  };
}
