import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { FakeBtcpay } from '../../test/fakes/btcpay.ts';
import { freePort, makeUser } from '../../test/harness.ts';
import { btcpayEnv, btcpayWorld, createInvoice, creditRows, deliver, usdBalance, WEBHOOK_SECRET, type PayWorld } from './payments.testkit.ts';

// A restored backup does not know the invoices created after it. BTCPay, the source of truth, still
// delivers their webhooks (and redelivers them): the server re-reads such an invoice from BTCPay and
// puts it back when the metadata we gave it names one of our accounts and its USD wallet, so the
// top-up is credited once; when it cannot, a paid one goes to the audit log for staff.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');

describe('a webhook for an invoice the database does not know', () => {
  let w: PayWorld;
  beforeEach(async () => {
    w = await btcpayWorld();
  });
  afterEach(async () => w.close());

  const db = () => w.ctx.app.deps.db;
  const ev = (id: string, type: string, originalDeliveryId?: string) => w.fake.event(id, type, { secret: WEBHOOK_SECRET, originalDeliveryId });
  /** An invoice made through the app, then gone from the database as a restore of an earlier backup leaves it. */
  const madeAfterTheBackup = async (amount: number | string = 25) => {
    const id = await createInvoice(w.ctx, w.user, amount);
    await db().deleteFrom('invoices').where('btcpay_id', '=', id).execute();
    return id;
  };
  const audits = (action: string) => db().selectFrom('audit_log').selectAll().where('action', '=', action).execute();

  it('of our store, with our metadata: put back from BTCPay and credited once, whatever is delivered again', async () => {
    await db().updateTable('users').set({ locale: 'es' }).where('id', '=', w.user.id).execute();
    const id = await madeAfterTheBackup(25);
    w.fake.set(id, 'Settled');
    const first = ev(id, 'InvoiceSettled');
    expect((await deliver(w.ctx, first)).statusCode).toBe(200);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(2500);
    const row = await db().selectFrom('invoices').selectAll().where('btcpay_id', '=', id).executeTakeFirstOrThrow();
    expect({ id: row.id, status: row.status, amount: row.amount_cents, wallet: row.wallet_id, locale: row.locale, credited: !!row.credited_at }).toEqual({
      id: w.fake.invoice(id).metadata.orderId,
      status: 'Settled',
      amount: 2500,
      wallet: w.fake.invoice(id).metadata.walletId,
      locale: 'es',
      credited: true,
    });
    // A redelivery, a later event and the reconcile job change nothing.
    await deliver(w.ctx, ev(id, 'InvoiceSettled', first.originalDeliveryId));
    await deliver(w.ctx, ev(id, 'InvoicePaymentSettled'));
    await w.ctx.app.deps.services.payments.reconcile();
    expect(await usdBalance(w.ctx, w.user.id)).toBe(2500);
    expect(await creditRows(w.ctx, id)).toHaveLength(1);
    expect((await audits('invoice.recovered')).map((a) => a.target_id)).toEqual([id]);
    expect(w.ctx.mailer.sent.filter((m) => m.to === w.user.email)).toHaveLength(1); // the receipt
  });

  it('put back while unpaid, it is credited when BTCPay settles it', async () => {
    const id = await madeAfterTheBackup(40);
    await deliver(w.ctx, ev(id, 'InvoiceCreated'));
    expect((await db().selectFrom('invoices').select('status').where('btcpay_id', '=', id).executeTakeFirstOrThrow()).status).toBe('New');
    w.fake.set(id, 'Settled');
    await deliver(w.ctx, ev(id, 'InvoiceSettled'));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(4000);
  });

  it('that cannot be put back (an erased account, another wallet, no metadata of ours, not a top-up amount): a paid one is audited once for staff, nothing credited', async () => {
    const other = await makeUser(w.ctx, { status: 'approved' }); // a second provider
    const erased = await madeAfterTheBackup();
    await db().updateTable('users').set({ deleted_at: '2026-01-01T00:00:00.000Z' }).where('id', '=', w.user.id).execute();
    const otherWallet = await createInvoice(w.ctx, other, 30);
    await db().deleteFrom('invoices').where('btcpay_id', '=', otherWallet).execute();
    w.fake.invoice(otherWallet).metadata.walletId = 'someone-elses-wallet';
    const foreign = await createInvoice(w.ctx, other, 30);
    await db().deleteFrom('invoices').where('btcpay_id', '=', foreign).execute();
    w.fake.invoice(foreign).metadata = { buyerEmail: 'made@in-btcpay.example' };
    const euros = await createInvoice(w.ctx, other, 30);
    await db().deleteFrom('invoices').where('btcpay_id', '=', euros).execute();
    w.fake.invoice(euros).currency = 'EUR';
    const reasons: Record<string, string> = {};
    for (const [id, reason] of [
      [erased, 'user_erased'],
      [otherWallet, 'wallet_mismatch'],
      [foreign, 'no_metadata_of_ours'],
      [euros, 'amount_refused'],
    ]) {
      reasons[id] = reason;
      w.fake.set(id, 'Settled');
      const d = ev(id, 'InvoiceSettled');
      expect((await deliver(w.ctx, d)).statusCode).toBe(200);
      expect((await deliver(w.ctx, ev(id, 'InvoiceSettled', d.originalDeliveryId))).statusCode).toBe(200);
    }
    expect(await db().selectFrom('invoices').select('id').where('btcpay_id', 'in', Object.keys(reasons)).execute()).toEqual([]);
    expect(await db().selectFrom('ledger_entries').select('id').where('kind', '=', 'invoice_credit').execute()).toEqual([]);
    const audited = await audits('invoice.unknown_paid');
    expect(Object.fromEntries(audited.map((a) => [a.target_id, JSON.parse(a.after_json!).reason]))).toEqual(reasons);
    const one = JSON.parse(audited.find((a) => a.target_id === otherWallet)!.after_json!);
    expect({ amount: one.amount, status: one.status, type: one.delivery.type, body: JSON.parse(one.delivery.body).invoiceId }).toEqual({
      amount: '30',
      status: 'Settled',
      type: 'InvoiceSettled',
      body: otherWallet,
    });
  });

  it('unpaid and not ours, or unknown to BTCPay too: ignored, nothing stored', async () => {
    const id = await madeAfterTheBackup();
    w.fake.invoice(id).metadata = {};
    await deliver(w.ctx, ev(id, 'InvoiceCreated'));
    const gone = await madeAfterTheBackup();
    const d = ev(gone, 'InvoiceSettled');
    w.fake.invoices.delete(gone);
    expect((await deliver(w.ctx, d)).statusCode).toBe(200);
    expect(await db().selectFrom('invoices').select('id').execute()).toEqual([]);
    expect(await db().selectFrom('audit_log').select('action').where('action', 'like', 'invoice.%').execute()).toEqual([]);
  });

  it('while BTCPay cannot be asked: answered 502, so BTCPay delivers it again; the redelivery credits it', async () => {
    const id = await madeAfterTheBackup();
    w.fake.set(id, 'Settled');
    const d = ev(id, 'InvoiceSettled');
    w.fake.failWith = 503;
    const res = await deliver(w.ctx, d);
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 502, code: 'payment.server_unavailable' });
    w.fake.failWith = null;
    expect((await deliver(w.ctx, ev(id, 'InvoiceSettled', d.originalDeliveryId))).statusCode).toBe(200);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(2500);
  });
});

describe('after a restore, end to end', () => {
  let tmp: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-pay-restore-'));
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** The real server on `dataDir` wired to the fake BTCPay (as payments.crash.test.ts starts it). */
  async function startPayServer(fake: FakeBtcpay, dataDir: string) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let output = '';
    const child = spawn(NODE, ['server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...btcpayEnv(fake),
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: url,
        CRON: '0',
        SEED_LOCATIONS: '0',
        JWT_SECRET: 'j'.repeat(40),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
      if (
        await fetch(`${url}/api/session`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    const stop = async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await gone;
    };
    return { url, stop, output: () => output };
  }

  it('an invoice created after the nightly backup, paid after the restore, is credited once from its webhook', async () => {
    const fake = await new FakeBtcpay().start();
    try {
      const dirA = path.join(tmp, 'a');
      const dirB = path.join(tmp, 'b');
      const a = await startPayServer(fake, dirA);
      const headers = { 'content-type': 'application/json', origin: a.url };
      const reg = await fetch(`${a.url}/api/register`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'payer@example.com', password: 'correct horse battery', nickname: 'payer_1' }),
      });
      expect(reg.status).toBe(201);
      const cookie = reg.headers.get('set-cookie')!.split(';')[0];
      // The nightly backup, while the server runs.
      const backup = path.join(tmp, 'backups', 'xg-night.sqlite');
      const b = spawnSync(NODE, ['scripts/backup.ts', '--out', backup], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATA_DIR: dirA } });
      expect(b.status, b.stderr).toBe(0);
      // The next morning a top-up is created; then the disk dies.
      const inv = await fetch(`${a.url}/api/create-btc-payment-invoice`, {
        method: 'POST',
        headers: { ...headers, cookie },
        body: JSON.stringify({ amount: '25.00' }),
      });
      expect(inv.status).toBe(200);
      const { invoiceId } = (await inv.json()) as { invoiceId: string };
      await a.stop();
      // Restored on a new disk, as the README says, and started on it.
      const r = spawnSync(NODE, ['scripts/restore.ts', '--from', backup], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATA_DIR: dirB } });
      expect(r.status, r.stderr).toBe(0);
      const server = await startPayServer(fake, dirB);
      // The provider pays; BTCPay delivers the settlement, then a redelivery of it.
      fake.set(invoiceId, 'Settled');
      const d = fake.event(invoiceId, 'InvoiceSettled', { secret: WEBHOOK_SECRET });
      const again = fake.event(invoiceId, 'InvoiceSettled', { secret: WEBHOOK_SECRET, originalDeliveryId: d.originalDeliveryId });
      const post = (x: typeof d) =>
        fetch(`${server.url}/api/webhooks/btcpay`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'btcpay-sig': x.signature },
          body: x.body,
        });
      expect((await post(d)).status).toBe(200);
      const read = () => {
        const file = new Database(path.join(dirB, 'xg.sqlite'), { readonly: true });
        try {
          const q = (sql: string) => (file.prepare(sql).get() as { n: number }).n;
          return {
            balanceCents: q(
              `SELECT w.balance_cents AS n FROM wallets w JOIN users u ON u.id = w.user_id WHERE w.wallet_type = 'USD' AND u.email = 'payer@example.com'`,
            ),
            credits: q(`SELECT count(*) AS n FROM ledger_entries WHERE kind = 'invoice_credit'`),
          };
        } finally {
          file.close();
        }
      };
      for (const deadline = Date.now() + 5000; read().balanceCents !== 2500 && Date.now() < deadline;) await new Promise((res) => setTimeout(res, 100));
      expect((await post(again)).status).toBe(200);
      await new Promise((res) => setTimeout(res, 300));
      expect({ ...read(), ignored: /an invoice we do not know, ignored/.test(server.output()) }).toEqual({ balanceCents: 2500, credits: 1, ignored: false });
      await server.stop();
    } finally {
      await fake.stop();
    }
  }, 60_000);
});
