import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { silentRelay, startChildServer, type ChildServer, type Cleanups } from '../../test/child-server.ts';
import { startSmtpSink, type SmtpSink } from '../../test/fakes/smtp.ts';
import { WELCOME_CLAIM_MS } from './wallets.service.ts';

// The real server in its own process, killed (kill -9) while the welcome e-mail is on its way, then
// started again on the same database file.

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function login(s: ChildServer, email: string, password: string): Promise<string> {
  const res = await fetch(`${s.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: s.url },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0];
}

describe('a welcome e-mail on its way when the server is killed', () => {
  it('is asked for again after the restart, once the claim is older than the mail timeouts, and mailed once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-welcome-crash-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const relay = await silentRelay();
    cleanups.push(() => relay.close());
    const a = await startChildServer(dataDir, relay.url, cleanups);
    const email = 'welcome-crash@example.com';
    const reg = await fetch(`${a.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: a.url },
      body: JSON.stringify({ email, password: 'correct horse battery', nickname: 'welcome_crash' }),
    });
    expect(reg.status).toBe(201);
    const cookieA = reg.headers.get('set-cookie')!.split(';')[0];
    // The request waits on the relay's greeting; the process dies meanwhile.
    void fetch(`${a.url}/api/email-wallet-promo-code`, { headers: { cookie: cookieA, origin: a.url } }).catch(() => {});
    await relay.connected;
    a.child.kill('SIGKILL');
    await a.exited;

    const sink: SmtpSink = await startSmtpSink();
    cleanups.push(() => sink.close());
    const b = await startChildServer(dataDir, sink.url, cleanups);
    const cookie = await login(b, email, 'correct horse battery');
    const ask = () => fetch(`${b.url}/api/email-wallet-promo-code`, { headers: { cookie, origin: b.url } });
    // Within the mail timeouts the claim may still be a live sender's (a second server): not overtaken.
    const soon = await ask();
    expect([soon.status, ((await soon.json()) as { code?: string }).code]).toEqual([409, 'wallet.welcome_code_on_its_way']);
    // The real servers run on the real clock: the claim is made as old as the timeouts instead.
    const db = new Database(path.join(dataDir, 'xg.sqlite'));
    try {
      db.prepare('UPDATE welcome_claims SET claimed_at = ?').run(new Date(Date.now() - WELCOME_CLAIM_MS - 1000).toISOString());
    } finally {
      db.close();
    }
    const again = await ask();
    const { code } = (await again.json()) as { code?: string };
    expect({ status: again.status, code, mailed: sink.mails.filter((m) => m.to.includes(email)).length }).toEqual({ status: 200, code: undefined, mailed: 1 });
    const promoCodes = new Database(path.join(dataDir, 'xg.sqlite'), { readonly: true });
    try {
      // the code the dead process made is gone: only the one mailed is left
      expect(promoCodes.prepare('SELECT count(*) FROM promo_codes').pluck().get()).toBe(1);
    } finally {
      promoCodes.close();
    }
  }, 60_000);
});
