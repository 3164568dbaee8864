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
