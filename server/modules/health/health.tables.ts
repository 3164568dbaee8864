import type { Generated } from 'kysely';
import type { HealthStatus } from '../../../contract/api/health.ts';

/** The health module's table (migrations 0003, 0008): one row per check and run. */
export interface HealthTables {
  health_checks: {
    id: Generated<number>;
    name: string;
    status: HealthStatus;
    message: string;
    duration_ms: number;
    checked_at: string;
  };
}
