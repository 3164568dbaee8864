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
 * An erased account's address goes from the rows of what it did: they keep its id (who acted) and
 * show `placeholder`, the address the erasure gave the account (profile.repository.ts eraseUser).
 */
export async function eraseActor(db: Executor, actorId: string, placeholder: string): Promise<void> {
  await db.updateTable('audit_log').set({ actor_email: placeholder }).where('actor_id', '=', actorId).execute();
}
