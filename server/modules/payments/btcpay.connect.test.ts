import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeBtcpay } from '../../test/fakes/btcpay.ts';
import { connectBtcpay, grants } from './btcpay.connect.ts';

let fake: FakeBtcpay;
beforeEach(async () => {
  fake = await new FakeBtcpay().start();
});
afterEach(async () => fake.stop());

const config = (over: Partial<{ url: string | null; apiKey: string | null }> = {}) => ({
  publicUrl: 'https://market.example',
  btcpay: { url: fake.url, storeId: fake.storeId, apiKey: fake.apiKey, webhookSecret: 'the-webhook-secret', ...over },
});

describe('npm run btcpay:connect', () => {
  it("reads BTCPay's permission strings: per store, all stores, and broader ones", () => {
    expect(grants(['btcpay.store.cancreateinvoice:S1'], 'btcpay.store.cancreateinvoice', 'S1')).toBe(true);
    expect(grants(['btcpay.store.cancreateinvoice:S2'], 'btcpay.store.cancreateinvoice', 'S1')).toBe(false);
    expect(grants(['btcpay.store.cancreateinvoice'], 'btcpay.store.cancreateinvoice', 'S1')).toBe(true);
    expect(grants(['btcpay.store.canmodifystoresettings:S1'], 'btcpay.store.webhooks.canmodifywebhooks', 'S1')).toBe(true);
    expect(grants(['btcpay.store.canviewinvoices:S1'], 'btcpay.store.cancreateinvoice', 'S1')).toBe(false);
    expect(grants(['unrestricted'], 'btcpay.store.canviewinvoices', 'S1')).toBe(true);
  });

  it('registers our webhook for the specific events, with redelivery and the secret; a second run updates it', async () => {
    const first = await connectBtcpay(config());
    expect(first.ok, first.lines.join('\n')).toBe(true);
    expect(fake.webhooks).toHaveLength(1);
    expect(fake.webhooks[0]).toMatchObject({
      url: 'https://market.example/api/webhooks/btcpay',
      enabled: true,
      automaticRedelivery: true,
      secret: 'the-webhook-secret',
      authorizedEvents: {
        everything: false,
        specificEvents: [
          'InvoiceCreated',
          'InvoiceReceivedPayment',
          'InvoicePaymentSettled',
          'InvoiceProcessing',
          'InvoiceSettled',
          'InvoiceExpired',
          'InvoiceInvalid',
        ],
      },
    });
    fake.webhooks[0].enabled = false;
    const second = await connectBtcpay(config());
    expect(second.ok).toBe(true);
    expect(fake.webhooks).toHaveLength(1);
    expect(fake.webhooks[0].enabled).toBe(true);
    expect(second.lines.join('\n')).toContain('updated');
  });

  it('says which permissions the key lacks, and registers nothing', async () => {
    fake.permissions = [`btcpay.store.canviewinvoices:${fake.storeId}`, 'btcpay.store.cancreateinvoice:another-store'];
    const r = await connectBtcpay(config());
    expect(r.ok).toBe(false);
    const text = r.lines.join('\n');
    expect(text).toContain('btcpay.store.cancreateinvoice — to create invoices');
    expect(text).toContain('btcpay.store.webhooks.canmodifywebhooks');
    expect(text).not.toContain('btcpay.store.canviewinvoices —');
    expect(fake.webhooks).toEqual([]);
  });

  it('reports a wrong key, an unreachable server and missing settings in plain words', async () => {
    expect((await connectBtcpay(config({ apiKey: 'wrong' }))).lines.at(-1)).toMatch(/refused the API key/);
    expect((await connectBtcpay(config({ url: null }))).lines.at(-1)).toMatch(/not configured: set BTCPAY_URL/);
    await fake.stop();
    expect((await connectBtcpay(config())).lines.at(-1)).toMatch(/cannot reach BTCPay Server/);
  });

  it('runs as a command with the exit code saying whether all is in place', async () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-connect-'));
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      BTCPAY_URL: fake.url,
      BTCPAY_STORE_ID: fake.storeId,
      BTCPAY_API_KEY: fake.apiKey,
      BTCPAY_WEBHOOK_SECRET: 'cli-secret',
      PUBLIC_URL: 'https://shop.example',
    };
    // Not spawnSync: the fake answers from this very process.
    const run = (e: NodeJS.ProcessEnv) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(process.execPath, ['scripts/btcpay-connect.ts'], { cwd: root, env: e }, (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
        );
      });
    try {
      const ok = await run(env);
      expect(ok.code, ok.out).toBe(0);
      expect(ok.out).toContain('registered');
      const bad = await run({ ...env, BTCPAY_API_KEY: 'nope' });
      expect(bad.code).toBe(1);
      expect(bad.out).toContain('refused the API key');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
