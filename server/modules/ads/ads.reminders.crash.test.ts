import { afterEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { silentRelay, startChildServer, type Cleanups } from '../../test/child-server.ts';
import { DAY_MS } from '../../core/clock.ts';
import { liveAd, placeIn } from './ads.testkit.ts';
import { renewalReminders } from './ads.reminders.ts';

// Renewal reminders whose run died on the way: the real server in its own process, killed
// (kill -9) while a reminder's e-mail waits on the mail relay, then later runs on the same file.
// And two runs at once: each reminder still goes out once.

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(cond: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const MIN = 60_000;

/** An app with an owner whose live ad ends in two days (from the clock's now), ready for its reminder. */
async function adEndingSoon(): Promise<{ ctx: TestContext; adId: string; ownerEmail: string; staff: { email: string; password: string } }> {
  const ctx = await createTestApp();
  cleanups.push(() => ctx.close());
  const owner = await makeUser(ctx, { status: 'approved', email: 'remind-crash@example.com' });
  const staff = await asAdmin(ctx);
  const ad = await liveAd(ctx, owner, staff, await placeIn(ctx, 'ny'), { title: 'Reminder crash test ad' });
  await ctx.app.deps.db
    .updateTable('ads')
    .set({ expires_at: new Date(ctx.clock.now().getTime() + 2 * DAY_MS).toISOString() })
    .where('id', '=', ad.id)
    .execute();
  return { ctx, adId: ad.id, ownerEmail: owner.email, staff };
}

describe('renewal reminders after a crash', () => {
  it('a reminder whose e-mail never left before a kill -9 is sent by a run 15 minutes later, once', async () => {
    const { ctx, adId, ownerEmail, staff } = await adEndingSoon();
    // The real server runs on the real clock: so does this app's, from here on.
    ctx.clock.set(new Date());
    await ctx.app.deps.db
      .updateTable('ads')
      .set({ expires_at: new Date(Date.now() + 2 * DAY_MS).toISOString() })
      .where('id', '=', adId)
      .execute();

    const relay = await silentRelay();
    cleanups.push(() => relay.close());
    const a = await startChildServer(ctx.dataDir, relay.url, cleanups);
    const login = await fetch(`${a.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: a.url },
      body: JSON.stringify({ email: staff.email, password: staff.password }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    void fetch(`${a.url}/api/admin/run-cron-job`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: a.url, cookie },
      body: JSON.stringify({ name: 'renewal-reminders' }),
    }).catch(() => {});
    // The reminder is taken and its e-mail waits on the relay's greeting; the process dies meanwhile.
    await relay.connected;
    const takenFor = async () => (await ctx.app.deps.db.selectFrom('ads').select('reminded_for').where('id', '=', adId).executeTakeFirstOrThrow()).reminded_for;
    await until(async () => (await takenFor()) !== null);
    a.child.kill('SIGKILL');
    await a.exited;

    // Runs on the same file after it: while the claim is fresh its sender may still be at it; past
    // 15 minutes it died on the way, and the reminder goes out once.
    const mailed = () => ctx.mailer.sent.filter((m) => m.to === ownerEmail && /expire/.test(m.subject)).map((m) => m.subject);
    const run = async (after: number) => {
      ctx.clock.set(new Date(Date.now() + after));
      return (await renewalReminders(ctx.app.deps)).message;
    };
    expect(await run(MIN)).toBe('0 reminder(s) sent');
    expect(await run(16 * MIN)).toBe('1 reminder(s) sent');
    expect(await run(40 * MIN)).toBe('0 reminder(s) sent');
    expect(await run(DAY_MS)).toBe('0 reminder(s) sent');
    expect(mailed()).toEqual([expect.stringMatching(/^Your ad expires on .*: Reminder crash test ad$/)]);
  }, 60_000);

  it('two runs at once send a reminder once, and once too when they take over a dead claim', async () => {
    const { ctx, adId, ownerEmail } = await adEndingSoon();
    const runs = async () => (await Promise.all([renewalReminders(ctx.app.deps), renewalReminders(ctx.app.deps)])).map((r) => r.message).sort();
    expect(await runs()).toEqual(['0 reminder(s) sent', '1 reminder(s) sent']);
    // A dead run's claim on the expiry notice (taken, never sent): two runs after 15 minutes, one sends it.
    const ends = Date.parse((await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', adId).executeTakeFirstOrThrow()).expires_at!);
    ctx.clock.set(new Date(ends + MIN));
    await ctx.app.deps.db
      .withTables<{ ads: { expired_notice_claimed_at: string | null } }>()
      .updateTable('ads')
      .set({ status: 'expired', expired_notice_for: new Date(ends).toISOString(), expired_notice_claimed_at: new Date(ends + MIN).toISOString() })
      .where('id', '=', adId)
      .execute();
    expect(await runs()).toEqual(['0 reminder(s) sent', '0 reminder(s) sent']);
    ctx.clock.set(new Date(ends + 17 * MIN));
    expect(await runs()).toEqual(['0 reminder(s) sent', '1 reminder(s) sent']);
    ctx.clock.set(new Date(ends + 40 * MIN));
    expect(await runs()).toEqual(['0 reminder(s) sent', '0 reminder(s) sent']);
    expect(ctx.mailer.sent.filter((m) => m.to === ownerEmail && /expire/.test(m.subject)).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Your ad expires on .*: Reminder crash test ad$/),
      'Your ad has expired: Reminder crash test ad',
    ]);
  });

  it('a reminder whose e-mail failed in the run is given back: the next run sends it, without waiting', async () => {
    const { ctx } = await adEndingSoon();
    const send = ctx.app.deps.mailer.send.bind(ctx.app.deps.mailer);
    ctx.app.deps.mailer.send = async () => {
      throw new Error('relay down');
    };
    expect((await renewalReminders(ctx.app.deps)).message).toBe('0 reminder(s) sent, 1 failed (retried next run)');
    ctx.app.deps.mailer.send = send;
    ctx.clock.advance(MIN);
    expect((await renewalReminders(ctx.app.deps)).message).toBe('1 reminder(s) sent');
    expect((await renewalReminders(ctx.app.deps)).message).toBe('0 reminder(s) sent');
  });
});
