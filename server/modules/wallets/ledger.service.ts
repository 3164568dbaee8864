import type { Executor, Trx } from '../../core/db.ts';
import { Conflict, NotFound, PaymentRequired } from '../../core/errors.ts';
import * as repo from './ledger.repository.ts';

// The one place money moves. Every change of a balance is a conditional UPDATE (the balance never
// goes below zero) plus a ledger row with a UNIQUE idempotency key, in the caller's transaction,
// so the business change (ad paid, code redeemed, invoice settled) commits or rolls back with it.
// A key that is already in the ledger means "already done": the earlier result stands and nothing
// moves twice, whatever the number of retries.

export type LedgerKind = 'promo_credit' | 'ad_payment' | 'ad_refund' | 'bump_payment' | 'invoice_credit' | 'adjustment';

export interface LedgerPost {
  walletId: string;
  /** Positive credits, negative debits; integer cents, never 0. */
  amountCents: number;
  kind: LedgerKind;
  /** What the money was for (ad id, promo code id, invoice id). */
  reference: string | null;
  idempotencyKey: string;
  at: string;
}

export interface LedgerResult {
  /** false when the key was already in the ledger (nothing moved this time). */
  applied: boolean;
  entryId: number;
}

/**
 * Moves money inside the caller's transaction (the Trx type makes calling it outside one a type
 * error). Throws 402 when a debit would overdraw, 404 for an unknown wallet, and 409 when the key
 * was used before for a different wallet or amount (a bug in the caller, never a retry).
 */
export async function postToLedger(trx: Trx, p: LedgerPost): Promise<LedgerResult> {
  if (!Number.isSafeInteger(p.amountCents) || p.amountCents === 0) throw new Error(`ledger: bad amount ${p.amountCents}`);
  const earlier = await repo.findEntryByKey(trx, p.idempotencyKey);
  if (earlier) {
    if (earlier.wallet_id !== p.walletId || earlier.amount_cents !== p.amountCents) {
      throw new Conflict('wallet.payment_conflict');
    }
    return { applied: false, entryId: earlier.id };
  }
  if (!(await repo.applyDelta(trx, p.walletId, p.amountCents))) {
    if (!(await repo.findWallet(trx, p.walletId))) throw new NotFound('wallet.not_found');
    throw new PaymentRequired('wallet.insufficient_funds');
  }
  // A concurrent writer with the same key (impossible while transactions are serialized, but the
  // UNIQUE constraint is the guarantee) makes this insert throw and the whole transaction roll back.
  const entryId = await repo.insertEntry(trx, p);
  return { applied: true, entryId };
}

/** Wallets whose balance is not the sum of their entries, or negative: the invariant's check. */
export function ledgerDiscrepancies(db: Executor) {
  return repo.walletsOutOfBalance(db);
}
