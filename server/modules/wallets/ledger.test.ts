import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { postToLedger, type LedgerPost } from './ledger.service.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const post = (p: Omit<LedgerPost, 'at'>) => ctx.app.deps.db.transaction().execute((trx) => postToLedger(trx, { ...p, at: ctx.clock.now().toISOString() }));

async function balances(): Promise<Map<string, number>> {
  const rows = await ctx.app.deps.db.selectFrom('wallets').select(['id', 'balance_cents']).execute();
  return new Map(rows.map((r) => [r.id, r.balance_cents]));
}

describe('ledger', () => {
  it('refuses an overdraft with 402 and moves nothing', async () => {
    const u = await makeUser(ctx);
    const [w] = await ctx.app.deps.db.selectFrom('wallets').select('id').where('user_id', '=', u.id).execute();
    await post({ walletId: w.id, amountCents: 500, kind: 'adjustment', reference: null, idempotencyKey: 'k1' });
    await expect(post({ walletId: w.id, amountCents: -501, kind: 'ad_payment', reference: null, idempotencyKey: 'k2' })).rejects.toMatchObject({
      statusCode: 402,
      code: 'wallet.insufficient_funds',
      message: 'Not enough money in this wallet.',
    });
    await expect(post({ walletId: 'no-such-wallet', amountCents: -1, kind: 'ad_payment', reference: null, idempotencyKey: 'k3' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'wallet.not_found',
    });
    expect((await balances()).get(w.id)).toBe(500);
    expect(await ctx.app.deps.db.selectFrom('ledger_entries').selectAll().execute()).toHaveLength(1);
  });

  it('treats a repeated key as done, and a reused key with other details as a conflict', async () => {
    const u = await makeUser(ctx);
    const [w] = await ctx.app.deps.db.selectFrom('wallets').select('id').where('user_id', '=', u.id).execute();
    const a = await post({ walletId: w.id, amountCents: 700, kind: 'adjustment', reference: null, idempotencyKey: 'same' });
    const b = await post({ walletId: w.id, amountCents: 700, kind: 'adjustment', reference: null, idempotencyKey: 'same' });
    expect(a).toEqual({ applied: true, entryId: a.entryId });
    expect(b).toEqual({ applied: false, entryId: a.entryId });
    await expect(post({ walletId: w.id, amountCents: 900, kind: 'adjustment', reference: null, idempotencyKey: 'same' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'wallet.payment_conflict',
    });
    expect((await balances()).get(w.id)).toBe(700);
  });

  it('rolls the ledger back with the business change when the transaction fails', async () => {
    const u = await makeUser(ctx);
    const [w] = await ctx.app.deps.db.selectFrom('wallets').select('id').where('user_id', '=', u.id).execute();
    await expect(
      ctx.app.deps.db.transaction().execute(async (trx) => {
        await postToLedger(trx, { walletId: w.id, amountCents: 100, kind: 'adjustment', reference: null, idempotencyKey: 'crash', at: 'x' });
        throw new Error('crash after the money moved');
      }),
    ).rejects.toThrow('crash');
    expect((await balances()).get(w.id)).toBe(0);
    // the retry is not mistaken for "already done"
    expect((await post({ walletId: w.id, amountCents: 100, kind: 'adjustment', reference: null, idempotencyKey: 'crash' })).applied).toBe(true);
  });
  // The property test that predicts each outcome (and runs two processes on one file) is
  // server/test/ledger-property.test.ts.
});
