import { startSmtpSink } from '../../test/fakes/smtp.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, asAdmin, createTestApp, type TestContext } from '../../test/harness.ts';
import { FakeBtcpay } from '../../test/fakes/btcpay.ts';
import { DEFAULT_HEALTH_OPTIONS, type HealthOptions } from './health.service.ts';
import type { HealthCheck } from '../../../contract/api/health.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const DISK_FINE = { degradedBelow: 0, failingBelow: 0 };
const DISK_FULL = { degradedBelow: 1.01, failingBelow: 1.01 };
const tune = (c: TestContext, over: Partial<HealthOptions>) => {
  c.app.deps.services.health.options = { ...DEFAULT_HEALTH_OPTIONS, disk: DISK_FINE, ...over };
};
const byName = (rows: HealthCheck[]) => Object.fromEntries(rows.map((r) => [r.name, r]));

async function app(env: Record<string, string>, mail: 'smtp' | 'memory' = 'smtp'): Promise<TestContext> {
  const c = await createTestApp({ env, mail });
  cleanups.push(() => c.close());
  return c;
}

/** The test SMTP relay on a given port, closed after the test. */
async function smtpOn(port: number, opts: { stall?: boolean } = {}) {
  const sink = await startSmtpSink({ port, ...opts });
  cleanups.push(() => sink.close());
  return sink;
}

// Staff are told once that a check fails, however the outside services behave: an alert that could
// not be sent is sent by a later run, a relay that stalls holds up no run, a check swinging between
// failing and degraded is one alert, and a BTCPay server error is not called a refused key.
describe('staff alerts when outside services fail', () => {
  // README "Health": "admins get one e-mail when a check turns failing". When the alert could not
  // be delivered (the SMTP relay was down at that moment, e.g. a network blip that also took the
  // disk or BTCPay down), it must go out once mail works again: otherwise staff are never told
  // about a failure that goes on. Now the alert is tried once, the error only logged, and since the
  // stored state already says "failing", no later run ever mails about it.
  it('a failing check whose alert could not be sent (SMTP down) is mailed once SMTP is back', async () => {
    const port = await freePort();
    const c = await app({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'xg@example.com' });
    const admin = await asAdmin(c);
    const run = async () => {
      const res = await c.app.inject({ method: 'POST', url: '/api/admin/run-health-check', headers: { cookie: admin.cookie }, payload: {} });
      expect(res.statusCode).toBe(200);
      return byName(res.json().healthChecks as HealthCheck[]);
    };
    tune(c, { disk: DISK_FULL, timeoutMs: 5000 });
    // SMTP down: nothing listens at SMTP_URL. The disk turns failing; the alert cannot go out.
    const first = await run();
    expect(first.disk.status).toBe('failing');
    expect(first.smtp.status).toBe('failing');

    // SMTP comes back; the disk is still full.
    const smtp = await smtpOn(port);
    c.clock.advance(5 * 60_000);
    const second = await run();
    expect(second.disk.status).toBe('failing');
    c.clock.advance(5 * 60_000);
    await run();
    // Staff still have not been told the disk is failing.
    expect(smtp.mails.map((m) => m.to)).toEqual([[admin.email]]);
  }, 30_000);

  // A check that hangs is cut at its time limit (HealthOptions.timeoutMs) so the others go on; but
  // the alert e-mails are sent inside the run with no limit at all (nodemailer's socket timeout is
  // 10 minutes a message, one staff member after the other). While a relay stalls, the run never
  // ends, and every later run (the 5-minute job, "run now") joins that pending run: no check is
  // recorded any more, so the health screen and /api/health keep answering from the last stored
  // results while the disk or database may be failing. A new run must record its checks within
  // its time limit whatever the mail relay does.
  it('a stalling SMTP relay does not stop the next health runs from being recorded', async () => {
    const port = await freePort();
    const smtp = await smtpOn(port, { stall: true });
    const c = await app({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'xg@example.com' });
    await asAdmin(c);
    const health = c.app.deps.services.health;
    tune(c, { disk: DISK_FULL, timeoutMs: 2000 });
    const first = health.run();
    first.catch(() => undefined);
    // The disk turned failing: the alert is on its way to the stalled relay.
    const deadline = Date.now() + 5000;
    while (!smtp.mails.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(smtp.mails).toHaveLength(1);

    // Five minutes later the next run (the disk has been freed, say).
    c.clock.advance(5 * 60_000);
    tune(c, { disk: DISK_FINE, timeoutMs: 2000 });
    const next = health.run();
    next.catch(() => undefined);
    const answered = await Promise.race([next.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    const stored = await c.app.deps.db.selectFrom('health_checks').select(['name', 'checked_at']).execute();
    await smtp.close(); // lets the stalled runs end
    await first.catch(() => undefined);
    expect({ answered, recorded: stored.length }).toEqual({ answered: true, recorded: 12 });
  }, 30_000);
});

describe('the payment-server check says what is wrong', () => {
  // BTCPay answers its health endpoint but its server info with a 5xx (restarting, behind a proxy
  // answering 502/503). The check codes this as "BTCPay Server refused our API key: no invoice can
  // be made" (payment.key_refused), which the screen words in en/es/pt: the operator is sent to
  // rotate a key that is fine. A server error is not a refused key.
  it('a 503 from BTCPay server info is not reported as a refused API key', async () => {
    const fake = new FakeBtcpay();
    fake.app.addHook('onRequest', async (req, reply) => {
      if (req.url === '/api/v1/server/info') return reply.code(503).send({ code: 'unavailable', message: 'restarting' });
    });
    await fake.start();
    cleanups.push(() => fake.stop());
    const c = await app({ BTCPAY_URL: fake.url, BTCPAY_STORE_ID: fake.storeId, BTCPAY_API_KEY: fake.apiKey, BTCPAY_WEBHOOK_SECRET: 'w'.repeat(32) }, 'memory');
    fake.webhooks.push({
      id: 'wh1',
      enabled: true,
      automaticRedelivery: true,
      url: `${c.config.publicUrl}/api/webhooks/btcpay`,
      authorizedEvents: { everything: true, specificEvents: [] },
    });
    tune(c, { timeoutMs: 5000 });
    const admin = await asAdmin(c);
    const res = await c.app.inject({ method: 'POST', url: '/api/admin/run-health-check', headers: { cookie: admin.cookie }, payload: {} });
    const check = byName(res.json().healthChecks as HealthCheck[])['payment-server'];
    expect(check.says?.code).not.toBe('payment.key_refused');
  }, 30_000);
});

describe('no alert storm', () => {
  // The brief of an alert: "one e-mail when a check turns failing". A check hovering at its limit
  // (a disk near 2 % free that log rotation frees a little, BTCPay answering in ~10 s: "slow"
  // degraded one run, "no answer in 10 s" failing the next) never gets well in between, yet every
  // failing -> degraded -> failing swing mails every admin again: an e-mail every ten minutes for
  // as long as it lasts. A check that went from failing to degraded has not recovered; staff were
  // told already, and must not be mailed again until it was ok in between.
  it('a check swinging between failing and degraded, never ok, is mailed once', async () => {
    const c = await app({}, 'memory');
    const admin = await asAdmin(c);
    const run = async () => {
      const res = await c.app.inject({ method: 'POST', url: '/api/admin/run-health-check', headers: { cookie: admin.cookie }, payload: {} });
      expect(res.statusCode).toBe(200);
      c.clock.advance(5 * 60_000);
      return byName(res.json().healthChecks as HealthCheck[]).disk.status;
    };
    const statuses: string[] = [];
    for (let i = 0; i < 6; i++) {
      tune(c, { disk: i % 2 ? { degradedBelow: 1.01, failingBelow: 0 } : DISK_FULL });
      statuses.push(await run());
    }
    expect(statuses).toEqual(['failing', 'degraded', 'failing', 'degraded', 'failing', 'degraded']);
    expect(c.mailer.sent.map((m) => m.subject)).toEqual(['[XG] Health check failing: Disk space']);
  }, 30_000);
});
