import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { btcpayWorld, createInvoice, creditRows, usdBalance, type PayWorld } from './payments.testkit.ts';
import { ledgerDiscrepancies } from '../wallets/ledger.service.ts';

// Two writers on one database file: worker threads, each with its own connection and its own app,
// reconcile the same settled invoices at the same moment. The ledger's UNIQUE key, not a
// check-then-insert, is what keeps it to one credit per invoice.

let w: PayWorld;
beforeEach(async () => {
  w = await btcpayWorld();
});
afterEach(async () => w.close());

function runWorker(data: Record<string, unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(import.meta.dirname, 'payments.worker.ts'), { workerData: data });
    worker.once('message', (m: { ok: boolean; report: string }) => (m.ok ? resolve(m.report) : reject(new Error(m.report))));
    worker.once('error', reject);
  });
}

describe('reconciliation from two processes at once', () => {
  it('credits each settled invoice once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createInvoice(w.ctx, w.user, 10 + i));
    for (const id of ids) w.fake.set(id, 'Settled');
    const file = path.join(w.ctx.dataDir, 'xg.sqlite');
    const env = { BTCPAY_URL: w.fake.url, BTCPAY_STORE_ID: w.fake.storeId, BTCPAY_API_KEY: w.fake.apiKey, BTCPAY_WEBHOOK_SECRET: 'x', DATA_DIR: w.ctx.dataDir };
    const start = Date.now() + 300;
    const reports = await Promise.all([
      runWorker({ file, env, start }),
      runWorker({ file, env, start }),
      w.ctx.app.deps.services.payments.reconcile().then((r) => r.message),
    ]);
    expect(reports.join(' | ')).toMatch(/credited/);
    for (const id of ids) expect(await creditRows(w.ctx, id), id).toHaveLength(1);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(1000 + 1100 + 1200 + 1300 + 1400);
    expect(await ledgerDiscrepancies(w.ctx.app.deps.db)).toEqual([]);
  }, 30_000);
});
