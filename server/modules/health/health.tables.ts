import type { Generated } from 'kysely';
import type { HealthStatus } from '../../../contract/api/health.ts';

/** The health module's table (migrations 0003, 0008, 0022): one row per check and run. */
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
}
