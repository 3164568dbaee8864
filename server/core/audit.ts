import type { Executor } from './db.ts';

export interface AuditInput {
  actor: { id: string; email: string } | null;
  action: string; // e.g. 'user.status', 'ad.approve', 'pricing.update'
  targetType: string; // 'user' | 'ad' | 'pricing' | 'promo_code' | 'state' | 'city' | 'report' | ...
  targetId: string | null;
  before?: unknown;
  after?: unknown;
  at: string;
}

/** Writes one audit row. Call it inside the same transaction as the staff action it records. */
export async function writeAudit(db: Executor, a: AuditInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: a.actor?.id ?? null,
      actor_email: a.actor?.email ?? null,
      action: a.action,
      target_type: a.targetType,
      target_id: a.targetId,
      before_json: a.before === undefined ? null : JSON.stringify(a.before),
      after_json: a.after === undefined ? null : JSON.stringify(a.after),
      at: a.at,
    })
    .execute();
}

/**
 * The audited actions an account takes for itself rather than as staff. writeAudit is called only
 * from staff routes (/api/admin, /api/master) and staff-only branches (a sandbox payment staff
 * simulate), and the system's own rows have no actor: so a row with an actor records an act done
 * as staff, unless its action is listed here (none is yet; a self-service act audited one day
 * must be, or its author's erasure would keep their address on it).
 */
export const SELF_SERVICE_ACTIONS: readonly string[] = [];

/**
 * What an erased account did, in the audit log: the rows of its acts as staff keep who acted, id
 * and address as they were (professional acts kept for legal claims, GDPR art. 17(3)(e): "every
 * staff action is audited", and an erased address would leave nobody able to say who approved,
 * priced or released what). The rows of its self-service acts (SELF_SERVICE_ACTIONS) show
 * `placeholder`, the address the erasure gave the account (profile.repository.ts eraseUser).
 */
export async function eraseActor(db: Executor, actorId: string, placeholder: string): Promise<void> {
  if (!SELF_SERVICE_ACTIONS.length) return;
  await db
    .updateTable('audit_log')
    .set({ actor_email: placeholder })
    .where('actor_id', '=', actorId)
    .where('action', 'in', [...SELF_SERVICE_ACTIONS])
    .execute();
}
