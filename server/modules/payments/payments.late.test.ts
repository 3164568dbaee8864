import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/harness.ts';
import { btcpayWorld, createInvoice, creditRows, deliver, usdBalance, WEBHOOK_SECRET, type PayWorld } from './payments.testkit.ts';

// Invoices BTCPay closed (Expired, Invalid) that staff mark Settled later: BTCPay sends a single
// InvoiceSettled and keeps its queue in memory, so when that delivery is lost only the jobs that
// re-read invoices can credit the wallet (INTEGRATIONS.md, PRODUCT §6), and exactly once.

let w: PayWorld;
beforeEach(async () => {
  w = await btcpayWorld();
});
afterEach(async () => w.close());

const DAY = 24 * 60 * 60 * 1000;
const ev = (id: string, type: string, extra?: Record<string, unknown>) => w.fake.event(id, type, { secret: WEBHOOK_SECRET, extra });
const payments = () => w.ctx.app.deps.services.payments;
/** How many times the fake BTCPay was asked for this invoice. */
const reads = (id: string) => w.fake.requests.filter((r) => r.method === 'GET' && r.url.endsWith(`/invoices/${id}`)).length;
const invoiceRow = (btcpayId: string) => w.ctx.app.deps.db.selectFrom('invoices').selectAll().where('btcpay_id', '=', btcpayId).executeTakeFirstOrThrow();

/** Creates an invoice and closes it as BTCPay does, the closing webhook delivered. */
async function closedInvoice(status: 'Expired' | 'Invalid', amount = 12, user = w.user): Promise<string> {
  const id = await createInvoice(w.ctx, user, amount);
  if (status === 'Expired') {
    w.fake.set(id, 'Expired', 'PaidPartial');
    await deliver(w.ctx, ev(id, 'InvoiceExpired', { partiallyPaid: true }));
  } else {
    w.fake.set(id, 'Invalid', 'None');
    await deliver(w.ctx, ev(id, 'InvoiceInvalid', { manuallyMarked: true }));
  }
  expect((await invoiceRow(id)).status).toBe(status);
  return id;
}

describe('an Expired or Invalid invoice marked Settled whose webhook is lost', () => {
  for (const status of ['Expired', 'Invalid'] as const) {
    it(`reconcile-invoices credits an ${status} invoice once; later runs and a late InvoiceSettled credit nothing more`, async () => {
      const id = await closedInvoice(status);
      w.fake.set(id, 'Settled', 'Marked');
      w.ctx.clock.advance(5 * 60 * 1000);
      expect((await payments().reconcile()).message).toContain('1 credited');
      expect(await usdBalance(w.ctx, w.user.id)).toBe(1200);
      expect(await invoiceRow(id)).toMatchObject({ status: 'Settled', additional_status: 'Marked' });
      expect((await invoiceRow(id)).credited_at).not.toBeNull();

      await payments().reconcile();
      await payments().reconcile({ expired: true });
      await deliver(w.ctx, ev(id, 'InvoiceSettled', { manuallyMarked: true, overPaid: false }));
      expect(await usdBalance(w.ctx, w.user.id)).toBe(1200);
      expect(await creditRows(w.ctx, id)).toHaveLength(1);
    });
  }

  it('marked 3 days after expiry: expire-invoices credits it once, reconcile-invoices does not ask; 40 days after, nobody asks', async () => {
    const late = await closedInvoice('Expired', 12);
    const tooLate = await closedInvoice('Expired', 15, await makeUser(w.ctx, { status: 'approved' }));
    w.ctx.clock.advance(3 * DAY);
    w.fake.set(late, 'Settled', 'Marked');
    const before = reads(late);
    await payments().reconcile();
    expect(reads(late)).toBe(before);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(0);

    expect((await payments().reconcile({ expired: true })).message).toContain('1 credited');
    expect(await usdBalance(w.ctx, w.user.id)).toBe(1200);
    await payments().reconcile({ expired: true });
    await deliver(w.ctx, ev(late, 'InvoiceSettled', { manuallyMarked: true, overPaid: false }));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(1200);
    expect(await creditRows(w.ctx, late)).toHaveLength(1);

    w.ctx.clock.advance(37 * DAY);
    w.fake.set(tooLate, 'Settled', 'Marked');
    const tooLateBefore = reads(tooLate);
    expect((await payments().reconcile()).message).toContain('0 invoice(s) checked');
    expect((await payments().reconcile({ expired: true })).message).toContain('0 invoice(s) checked');
    expect(reads(tooLate)).toBe(tooLateBefore);
    expect((await invoiceRow(tooLate)).credited_at).toBeNull();
  });
});

describe('expire-invoices and Expired invoices that stay Expired', () => {
  it('asks each at most once a run, records checked_at, and 201 of them take turns under the 200-a-run limit', async () => {
    const first = await closedInvoice('Expired');
    const row = await invoiceRow(first);
    // 200 more like it, written directly: creating them through the API would hit the per-user limits.
    const ids = [first];
    for (let i = 0; i < 200; i++) {
      const btcpayId = `${first}c${i}`;
      const orderId = `${row.id}c${i}`;
      w.fake.invoices.set(btcpayId, { ...w.fake.invoice(first), id: btcpayId, metadata: { ...w.fake.invoice(first).metadata, orderId } });
      await w.ctx.app.deps.db
        .insertInto('invoices')
        .values({ ...row, id: orderId, btcpay_id: btcpayId })
        .execute();
      ids.push(btcpayId);
    }
    w.ctx.clock.advance(2 * DAY);

    const asked = new Set<string>();
    for (let run = 0; run < 2; run++) {
      const before = new Map(ids.map((id) => [id, reads(id)]));
      const at = w.ctx.clock.now().toISOString();
      expect((await payments().reconcile({ expired: true })).message).toMatch(/^200 invoice\(s\) checked, 200 no_change/);
      const thisRun = ids.filter((id) => reads(id) > before.get(id)!);
      expect(thisRun).toHaveLength(200);
      for (const id of thisRun) {
        expect(reads(id) - before.get(id)!).toBe(1);
        expect((await invoiceRow(id)).checked_at).toBe(at);
        asked.add(id);
      }
      w.ctx.clock.advance(15 * 60 * 1000);
    }
    expect(asked.size).toBe(201);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(0);
  });

  it('an open invoice BTCPay forgot is still closed as Expired; a closed one it forgot keeps its status and its check is recorded', async () => {
    const open = await createInvoice(w.ctx, w.user, 20);
    const invalid = await closedInvoice('Invalid');
    w.fake.invoices.delete(open);
    w.fake.invoices.delete(invalid);
    w.ctx.clock.advance(2 * DAY);
    const at = w.ctx.clock.now().toISOString();
    expect(await payments().reconcile({ expired: true })).toEqual({
      message: '2 invoice(s) checked, 1 closed, 1 unknown_at_server',
      says: {
        code: 'cron.invoices_checked',
        params: { count: 2 },
        parts: [
          { code: 'cron.invoices.closed', params: { count: 1 } },
          { code: 'cron.invoices.unknown_at_server', params: { count: 1 } },
        ],
      },
    });
    expect(await invoiceRow(open)).toMatchObject({ status: 'Expired', checked_at: at });
    expect(await invoiceRow(invalid)).toMatchObject({ status: 'Invalid', checked_at: at });
  });
});
