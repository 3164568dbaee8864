// The wallet history says what each row was for: the ad a payment, refund or bump was for (by its
// title, never its internal id), the promo code a credit came from (as redeemed), the invoice of a
// top-up. Only ever the caller's own ads and codes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { fundedUsd, pay, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';
import { postToLedger, type LedgerKind } from '../wallets/ledger.service.ts';
import { DAY_MS } from '../../core/clock.ts';
import * as repo from './payments.repository.ts';

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp({ env: { SESSION_DAYS: '365' } });
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => {
  await ctx.close();
});

const get = (u: TestUser, url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: u.cookie } });

interface Row {
  kind: string;
  reference: string | null;
  adTitle?: string | null;
  adDeleted?: boolean | null;
  promoCode?: string | null;
  invoiceId?: string | null;
}
async function history(u: TestUser): Promise<Row[]> {
  const res = await get(u, '/api/wallet-transactions');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().transactions as Row[];
}
/** What a row says it was for (the fields this feature adds). */
const about = (r: Row | undefined) => r && { kind: r.kind, adTitle: r.adTitle, adDeleted: r.adDeleted, promoCode: r.promoCode, invoiceId: r.invoiceId };

async function makeCode(code: string, amountCents = 2000): Promise<string> {
  const made = await ctx.app.inject({
    method: 'POST',
    url: '/api/admin/set-promo-code-by-id',
    headers: { cookie: admin.cookie },
    payload: { code, amountCents, maxUses: 10, active: true, expiresAt: null },
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().promoCode.id as string;
}
async function redeem(u: TestUser, code: string): Promise<string> {
  const redeemed = await ctx.app.inject({ method: 'POST', url: '/api/add-promo-code-to-promo-wallet', headers: { cookie: u.cookie }, payload: { code } });
  expect(redeemed.statusCode, redeemed.body).toBe(200);
  return redeemed.json().wallet.id as string;
}

let key = 0;
/** A ledger row written straight through the ledger service (as the money services write theirs). */
const ledger = (walletId: string, kind: LedgerKind, reference: string, amountCents = 100) =>
  ctx.app.deps.db
    .transaction()
    .execute((trx) => postToLedger(trx, { walletId, amountCents, kind, reference, idempotencyKey: `history-${++key}`, at: ctx.clock.now().toISOString() }));

describe('GET /api/wallet-transactions: what each row was for', () => {
  it('names, in the wallet history, the ad a payment was for and the promo code a credit came from', async () => {
    await makeCode('SPRING-2026');
    const promoWallet = await redeem(owner, 'SPRING-2026');
    const ad = await postAd(ctx, owner, ny, { title: 'Ad paid with promo money' });
    expect((await pay(ctx, owner, ad.id, promoWallet)).statusCode).toBe(200);
    const rows = await history(owner);
    const said = (kind: string) => JSON.stringify(rows.find((r) => r.kind === kind));
    expect({ payment: said('ad_payment').includes('Ad paid with promo money'), credit: said('promo_credit').includes('SPRING-2026') }).toEqual({
      payment: true,
      credit: true,
    });
    expect(rows.map(about)).toEqual([
      { kind: 'ad_payment', adTitle: 'Ad paid with promo money', adDeleted: false, promoCode: null, invoiceId: null },
      { kind: 'promo_credit', adTitle: null, adDeleted: null, promoCode: 'SPRING-2026', invoiceId: null },
    ]);
  });

  it('names a top-up by its invoice id', async () => {
    const usd = await fundedUsd(ctx, owner, 0);
    await ledger(usd, 'invoice_credit', 'BTCPAY-INV-1', 2500);
    expect((await history(owner)).map(about)).toEqual([{ kind: 'invoice_credit', adTitle: null, adDeleted: null, promoCode: null, invoiceId: 'BTCPAY-INV-1' }]);
  });

  it("shows only the caller's own ads and codes: another user's title or code never appears, even named by a row of theirs", async () => {
    const other = await makeUser(ctx, { status: 'approved' });
    const mine = await postAd(ctx, owner, ny, { title: 'Owner private title' });
    const theirs = await postAd(ctx, other, ny, { title: 'Other user secret title' });
    expect((await pay(ctx, owner, mine.id, await fundedUsd(ctx, owner, 5000))).statusCode).toBe(200);
    const otherUsd = await fundedUsd(ctx, other, 5000);
    expect((await pay(ctx, other, theirs.id, otherUsd)).statusCode).toBe(200);
    const ownerCode = await makeCode('OWNER-ONLY-1');
    await redeem(owner, 'OWNER-ONLY-1');
    // Rows of the other user's wallet whose reference names the owner's ad and the owner's code
    // (no service writes such rows; a row must still not reach through to what is not theirs).
    await ledger(otherUsd, 'ad_refund', mine.id);
    await ledger(otherUsd, 'promo_credit', ownerCode);

    const otherRows = await history(other);
    expect(JSON.stringify(otherRows)).not.toMatch(/Owner private title|OWNER-ONLY-1/);
    expect(otherRows.map(about)).toEqual([
      { kind: 'promo_credit', adTitle: null, adDeleted: null, promoCode: null, invoiceId: null },
      { kind: 'ad_refund', adTitle: null, adDeleted: true, promoCode: null, invoiceId: null },
      { kind: 'ad_payment', adTitle: 'Other user secret title', adDeleted: false, promoCode: null, invoiceId: null },
      { kind: 'adjustment', adTitle: null, adDeleted: null, promoCode: null, invoiceId: null },
    ]);
    const ownerRows = await history(owner);
    expect(JSON.stringify(ownerRows)).not.toContain('Other user secret title');
    expect(ownerRows.filter((r) => r.kind !== 'adjustment').map(about)).toEqual([
      { kind: 'promo_credit', adTitle: null, adDeleted: null, promoCode: 'OWNER-ONLY-1', invoiceId: null },
      { kind: 'ad_payment', adTitle: 'Owner private title', adDeleted: false, promoCode: null, invoiceId: null },
    ]);
  });

  it("keeps a deleted ad's last title while it is stored, and says only that the ad was deleted once it is erased", async () => {
    const ad = await postAd(ctx, owner, ny, { title: 'Ad deleted while in review' });
    expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 5000))).statusCode).toBe(200);
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie } });
    expect(del.statusCode, del.body).toBe(200);
    const rows = await history(owner);
    expect(rows.filter((r) => r.kind !== 'adjustment').map(about)).toEqual([
      { kind: 'ad_refund', adTitle: 'Ad deleted while in review', adDeleted: true, promoCode: null, invoiceId: null },
      { kind: 'ad_payment', adTitle: 'Ad deleted while in review', adDeleted: true, promoCode: null, invoiceId: null },
    ]);

    // The account deleted: its deleted ads' stored versions are erased; the ledger stays, and says
    // no more than that the ad was deleted (read as the page would, the session being gone).
    const gone = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/delete-my-profile?confirm=true',
      headers: { cookie: owner.cookie },
      payload: { password: owner.password },
    });
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    const { rows: kept } = await repo.transactions(ctx.app.deps.db, { userId: owner.id, offset: 0, limit: 10 });
    expect(kept.filter((r) => r.kind !== 'adjustment').map((r) => ({ kind: r.kind, title: r.ad_title, exists: r.ad_exists }))).toEqual([
      { kind: 'ad_refund', title: null, exists: 0 },
      { kind: 'ad_payment', title: null, exists: 0 },
    ]);
  });

  it('names a promo code as it was redeemed, not as staff renamed it later', async () => {
    const id = await makeCode('WINTER-OLD');
    await redeem(owner, 'WINTER-OLD');
    ctx.clock.advance(DAY_MS);
    const renamed = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-promo-code-by-id',
      headers: { cookie: admin.cookie },
      payload: { id, code: 'WINTER-NEW', amountCents: 2000, maxUses: 10, active: true, expiresAt: null },
    });
    expect(renamed.statusCode, renamed.body).toBeLessThan(300);
    ctx.clock.advance(DAY_MS);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-promo-code-by-id',
      headers: { cookie: admin.cookie },
      payload: { id, code: 'WINTER-NEWER', amountCents: 2000, maxUses: 10, active: true, expiresAt: null },
    });
    expect(again.statusCode, again.body).toBeLessThan(300);
    const other = await makeUser(ctx, { status: 'approved' });
    await redeem(other, 'WINTER-NEWER');
    expect((await history(owner)).map((r) => r.promoCode)).toEqual(['WINTER-OLD']);
    expect((await history(other)).map((r) => r.promoCode)).toEqual(['WINTER-NEWER']);
  });
});
