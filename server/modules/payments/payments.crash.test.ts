import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FakeBtcpay } from '../../test/fakes/btcpay.ts';
import { btcpayEnv, WEBHOOK_SECRET } from './payments.testkit.ts';
import { freePort } from '../../test/harness.ts';

// kill -9 between storing a delivery and crediting it: the real server in its own process, killed
// while it waits on BTCPay's answer to the re-read; a new process on the same database file must
// credit exactly once on start, and a redelivery afterwards changes nothing.

const ROOT = path.resolve(import.meta.dirname, '../../..');
let fake: FakeBtcpay;
let dataDir: string;

beforeAll(async () => {
  fake = await new FakeBtcpay().start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-crash-'));
});
afterAll(async () => {
  await fake.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(): Promise<{ url: string; child: ChildProcess; exited: Promise<void>; output: () => string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...btcpayEnv(fake),
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.CRASH_LOG ?? 'warn',
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
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    try {
      if ((await fetch(`${url}/api/session`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, exited, output: () => output };
}

const readDb = <T>(fn: (db: Database.Database) => T): T => {
  const db = new Database(path.join(dataDir, 'xg.sqlite'), { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
};
const balance = () =>
  readDb(
    (db) =>
      (
        db
          .prepare(`SELECT w.balance_cents AS b FROM wallets w JOIN users u ON u.id = w.user_id WHERE w.wallet_type = 'USD' AND u.email = 'crash@example.com'`)
          .get() as { b: number }
      ).b,
  );

describe('a crash between storing a delivery and crediting it', () => {
  it('credits exactly once after the restart, whatever is redelivered', async () => {
    const a = await startServer();
    const headers = { 'content-type': 'application/json', origin: a.url };
    const reg = await fetch(`${a.url}/api/register`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'crash@example.com', password: 'correct horse battery', nickname: 'crash_1' }),
    });
    expect(reg.status).toBe(201);
    const cookie = reg.headers.get('set-cookie')!.split(';')[0];
    const inv = await fetch(`${a.url}/api/create-btc-payment-invoice`, {
      method: 'POST',
      headers: { ...headers, cookie },
      body: JSON.stringify({ amount: '25.00' }),
    });
    expect(inv.status).toBe(200);
    const { invoiceId } = (await inv.json()) as { invoiceId: string };
    fake.set(invoiceId, 'Settled');

    // BTCPay holds the re-read: the delivery is stored and answered, the credit not yet made.
    let held!: () => void;
    const arrived = new Promise<void>((r) => (held = r));
    fake.holdReads = new Promise<void>(() => {});
    fake.onHold = held;
    const d = fake.event(invoiceId, 'InvoiceSettled', { secret: WEBHOOK_SECRET });
    const res = await fetch(`${a.url}/api/webhooks/btcpay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'btcpay-sig': d.signature },
      body: d.body,
    });
    expect(res.status).toBe(200);
    await arrived;
    a.child.kill('SIGKILL');
    await a.exited;

    expect(readDb((db) => db.prepare('SELECT processed_at, type FROM webhook_deliveries').all())).toEqual([{ processed_at: null, type: 'InvoiceSettled' }]);
    expect(balance()).toBe(0);

    fake.holdReads = null;
    fake.onHold = null;
    const b = await startServer();
    try {
      const deadline = Date.now() + 10_000;
      while (balance() !== 2500 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(balance(), b.output()).toBe(2500);
      const again = fake.event(invoiceId, 'InvoiceSettled', { secret: WEBHOOK_SECRET, originalDeliveryId: d.originalDeliveryId });
      expect(
        (
          await fetch(`${b.url}/api/webhooks/btcpay`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'btcpay-sig': again.signature },
            body: again.body,
          })
        ).status,
      ).toBe(200);
      const fresh = fake.event(invoiceId, 'InvoiceSettled', { secret: WEBHOOK_SECRET });
      expect(
        (
          await fetch(`${b.url}/api/webhooks/btcpay`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'btcpay-sig': fresh.signature },
            body: fresh.body,
          })
        ).status,
      ).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(balance()).toBe(2500);
      expect(readDb((db) => db.prepare(`SELECT count(*) AS n FROM ledger_entries WHERE kind = 'invoice_credit'`).get())).toEqual({ n: 1 });
    } finally {
      b.child.kill('SIGKILL');
      await b.exited;
    }
  }, 60_000);
});
