import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { btcpayWorld, createInvoice, deliver, usdBalance, WEBHOOK_SECRET, type PayWorld } from './payments.testkit.ts';
import { ledgerDiscrepancies } from '../wallets/ledger.service.ts';

// A slow network between us and BTCPay: a real HTTP hop in front of the fake BTCPay that can hold
// one answer (already computed by BTCPay) before passing it on, as a congested link does.
class SlowLink {
  server!: http.Server;
  url = '';
  private holdNext = false;
  private release: (() => void) | null = null;
  captured: Promise<string>;
  private onCaptured!: (body: string) => void;
  private readonly upstream: () => string;
  constructor(upstream: () => string) {
    this.upstream = upstream;
    this.captured = new Promise((r) => (this.onCaptured = r));
  }
  holdNextInvoiceRead(): Promise<void> {
    this.holdNext = true;
    return new Promise<void>((r) => (this.release = r)).then(() => undefined);
  }
  releaseHeld() {
    this.release?.();
  }
  async start() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
          const up = await fetch(this.upstream() + req.url, {
            method: req.method,
            headers,
            body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
          });
          const text = await up.text();
          if (this.holdNext && req.method === 'GET' && /\/invoices\/[^/?]+$/.test(req.url ?? '')) {
            this.holdNext = false;
            const gate = new Promise<void>((r) => (this.release = r));
            this.onCaptured(text);
            await gate;
          }
          res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
          res.end(text);
        })();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }
  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

let w: PayWorld;
let link: SlowLink;
let fakeUrl = '';
beforeEach(async () => {
  // The link forwards to whatever URL the fake BTCPay gets; the app talks to the link.
  link = await new SlowLink(() => fakeUrl).start();
  w = await btcpayWorld({ BTCPAY_URL: link.url });
  fakeUrl = w.fake.url;
});
afterEach(async () => {
  link.releaseHeld();
  await w.close();
  await link.stop();
});

// BTCPay never takes a Settled invoice back to New, Processing or Expired; only staff's Invalid mark
// moves it on. An answer read before the settlement and delivered after it is ours, not BTCPay's.
describe('a read of BTCPay that arrives after the settlement it predates', () => {
  for (const before of ['Processing', 'Expired'] as const) {
    it(`(${before}) leaves the credited invoice Settled: no status change, no event, no staff alarm`, async () => {
      const id = await createInvoice(w.ctx, w.user, 40);
      w.fake.set(id, before);
      const payments = w.ctx.app.deps.services.payments;
      const events: string[] = [];
      const send = w.ctx.app.deps.hub.sendToUser.bind(w.ctx.app.deps.hub);
      w.ctx.app.deps.hub.sendToUser = ((userId: string, type: string, payload: { type?: string }) => {
        events.push(`${type}:${payload.type ?? ''}`);
        return send(userId, type as never, payload as never);
      }) as typeof w.ctx.app.deps.hub.sendToUser;

      // The reconcile job asks BTCPay; BTCPay answers, but the answer is slow to arrive.
      void link.holdNextInvoiceRead();
      const reconciling = payments.reconcile();
      const staleBody = await link.captured;
      expect(JSON.parse(staleBody).status).toBe(before);

      // Meanwhile the payment confirms: BTCPay says Settled and sends InvoiceSettled; it is applied.
      w.fake.set(id, 'Settled');
      await deliver(w.ctx, w.fake.event(id, 'InvoiceSettled', { secret: WEBHOOK_SECRET }));
      expect(await usdBalance(w.ctx, w.user.id)).toBe(4000);
      const settledEvents = events.length;

      // The old answer arrives now.
      link.releaseHeld();
      await reconciling;

      const row = await w.ctx.app.deps.db.selectFrom('invoices').select(['status', 'credited_at']).where('btcpay_id', '=', id).executeTakeFirstOrThrow();
      const alarms = await w.ctx.app.deps.db.selectFrom('audit_log').select('action').where('action', '=', 'invoice.unsettled_after_credit').execute();
      expect(await usdBalance(w.ctx, w.user.id)).toBe(4000);
      expect(await ledgerDiscrepancies(w.ctx.app.deps.db)).toEqual([]);
      expect({ status: row.status, alarms: alarms.length, eventsAfter: events.slice(settledEvents) }).toEqual({
        status: 'Settled',
        alarms: 0,
        eventsAfter: [],
      });
    });
  }
});
