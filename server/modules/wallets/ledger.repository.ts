import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';

// The only SQL that touches wallets.balance_cents. Called by ledger.service.ts, nothing else.

export function findEntryByKey(db: Executor, idempotencyKey: string) {
  return db.selectFrom('ledger_entries').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
}

/** Adds delta to the balance only when the result stays ≥ 0; returns whether a row changed. */
export async function applyDelta(db: Executor, walletId: string, delta: number): Promise<boolean> {
  const r = await db
    .updateTable('wallets')
    .set({ balance_cents: sql<number>`balance_cents + ${delta}` })
    .where('id', '=', walletId)
    .where(sql<boolean>`balance_cents + ${delta} >= 0`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertEntry(
  db: Executor,
  e: { walletId: string; amountCents: number; kind: string; reference: string | null; idempotencyKey: string; at: string },
): Promise<number> {
  const r = await db
    .insertInto('ledger_entries')
    .values({ wallet_id: e.walletId, amount_cents: e.amountCents, kind: e.kind, reference: e.reference, idempotency_key: e.idempotencyKey, created_at: e.at })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

export function findWallet(db: Executor, walletId: string) {
  return db.selectFrom('wallets').selectAll().where('id', '=', walletId).executeTakeFirst();
}

/** Every wallet whose balance differs from the sum of its entries (should always be empty). */
export function walletsOutOfBalance(db: Executor) {
  return db
    .selectFrom('wallets as w')
    .leftJoin('ledger_entries as e', 'e.wallet_id', 'w.id')
    .select(['w.id', 'w.balance_cents', sql<number>`coalesce(sum(e.amount_cents), 0)`.as('ledger_sum')])
    .groupBy('w.id')
    .having(sql<boolean>`w.balance_cents <> coalesce(sum(e.amount_cents), 0) OR w.balance_cents < 0`)
    .execute();
}
