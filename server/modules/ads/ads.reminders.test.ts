import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { asAdmin, createTestApp, makeUser, rawInject, type TestContext, type TestUser } from '../../test/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../test/fakes/smtp.ts';
import { DAY_MS } from '../../core/clock.ts';
import { liveAd, placeIn } from './ads.testkit.ts';
import { renewalReminders } from './ads.reminders.ts';
import { expireAds } from './ads.expiry.ts';
import { findJob } from '../cron/cron.jobs.ts';
import { runJob } from '../cron/cron.service.ts';

// Renewal reminders over a real SMTP server: three days before the end of a term, and once the
// ad has expired; once per ad and term; in the owner's language; with a signed one-click link
// (List-Unsubscribe) that turns them off.

let ctx: TestContext;
let smtp: SmtpSink;
let owner: TestUser;
let staff: TestUser;
beforeEach(async () => {
  smtp = await startSmtpSink();
  ctx = await createTestApp({ mail: 'smtp', env: { SMTP_URL: smtp.url, MAIL_FROM: 'XG <no-reply@xg.test>' } });
  owner = await makeUser(ctx, { status: 'approved' });
  staff = await asAdmin(ctx);
});
afterEach(async () => {
  await ctx.close();
  await smtp.close();
});

const reminders = () => smtp.mails.filter((m) => /expires on|has expired|vence|venceu|venció/.test(m.subject));
const run = () => renewalReminders(ctx.app.deps).then((r) => r.message);
/** A run as the scheduler starts it (recorded in cron_runs; every run keeps reminder_backlog, 0047). */
const cronRun = () => runJob(ctx.app.deps, findJob('renewal-reminders')!).then((r) => r.message);

describe('renewal-reminders', () => {
  it('e-mails once per ad and term, three days ahead, then once when it expired', async () => {
    const place = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, staff, place, { title: 'Reminder test ad, downtown' });
    const row = await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow();
    const ends = Date.parse(row.expires_at!);

    ctx.clock.set(new Date(ends - 4 * DAY_MS));
    expect(await run()).toBe('0 reminder(s) sent');
    ctx.clock.set(new Date(ends - 3 * DAY_MS + 60_000));
    expect(await run()).toBe('1 reminder(s) sent');
    expect(await run()).toBe('0 reminder(s) sent');
    await smtp.waitFor(1);
    const [mail] = reminders();
    expect(mail.to).toEqual([owner.email]);
    expect(row.expires_at).toBe('2026-02-14T12:00:00.000Z');
    expect(mail.subject).toBe('Your ad expires on Feb 14, 2026, 12:00 PM UTC: Reminder test ad, downtown'); // the reader's way, in UTC
    expect(mail.text).toContain(`${ctx.config.publicUrl}/admin/dashboard/my-ads?renew=${ad.id}`);
    expect(mail.html).toContain('Renew the ad');
    expect(mail.headers['list-unsubscribe']).toMatch(new RegExp(`^<${ctx.config.publicUrl}/api/unsubscribe\\?u=${owner.id}&t=[\\w-]+>$`));
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toMatch(/Stop reminder e-mails: http:\/\/\S+\/unsubscribe\?u=/);

    ctx.clock.set(new Date(ends + 60_000));
    await ctx.app.deps.db.updateTable('ads').set({ status: 'expired' }).where('id', '=', ad.id).execute();
    expect(await run()).toBe('1 reminder(s) sent');
    expect(await run()).toBe('0 reminder(s) sent');
    await smtp.waitFor(2);
    expect(reminders().map((m) => m.subject)).toEqual([mail.subject, 'Your ad has expired: Reminder test ad, downtown']);
    // Long expired ads get nothing (a restore does not mail every old ad). The window reaches back
    // to the oldest expiry the runs left unhandled (next tests), so a restored backup is one with
    // no such record, or whose last complete run came after these expiries: both mail nothing old.
    ctx.clock.set(new Date(ends + DAY_MS));
    expect(await cronRun()).toBe('0 reminder(s) sent'); // the backup's last run, a day after the end
    ctx.clock.set(new Date(ends + 5 * DAY_MS));
    await ctx.app.deps.db.updateTable('ads').set({ expired_notice_for: null }).where('id', '=', ad.id).execute();
    expect(await run()).toBe('0 reminder(s) sent');
    // No record at all: the window is kept in reminder_backlog since 0047, not read from cron_runs.
    await ctx.app.deps.db.deleteFrom('cron_runs').execute();
    ctx.app.deps.database.sqlite.prepare('DELETE FROM reminder_backlog').run();
    expect(await run()).toBe('0 reminder(s) sent');
  });

  it('after a 5-day outage, the owner of an ad that expired meanwhile is told once; not for ads past 30 days', async () => {
    const place = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, staff, place, { title: 'Outage weekend test ad' });
    const old = await liveAd(ctx, owner, staff, place, { title: 'Ad that ended long ago' });
    const ends = Date.parse((await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow()).expires_at!);
    await ctx.app.deps.db
      .updateTable('ads')
      .set({ expires_at: new Date(ends + 100 * DAY_MS).toISOString() })
      .where('id', '=', old.id)
      .execute();
    // The jobs run while the server is up: three days and a half hour before the end, nothing to say yet.
    ctx.clock.set(new Date(ends - 3 * DAY_MS - 30 * 60_000));
    await expireAds(ctx.app.deps);
    expect(await cronRun()).toBe('0 reminder(s) sent');
    // Down from here for five days (no job runs); started again, every job runs once.
    ctx.clock.set(new Date(ends + 2 * DAY_MS + 60 * 60_000));
    await expireAds(ctx.app.deps);
    expect(await cronRun()).toBe('1 reminder(s) sent');
    expect(await cronRun()).toBe('0 reminder(s) sent');
    await smtp.waitFor(1);
    expect(reminders().map((m) => m.subject)).toEqual(['Your ad has expired: Outage weekend test ad']);

    // Down 40 days: told about an ad that ended 20 days ago, not about one that ended 35 days ago.
    const down = ends + 3 * DAY_MS;
    ctx.clock.set(new Date(down + 40 * DAY_MS));
    for (const [id, ago] of [
      [ad.id, 20],
      [old.id, 35],
    ] as const) {
      const at = new Date(down + (40 - ago) * DAY_MS).toISOString();
      await ctx.app.deps.db.updateTable('ads').set({ status: 'expired', expires_at: at }).where('id', '=', id).execute();
    }
    // The last complete run, when it went down (kept in reminder_backlog since 0047, no longer
    // read from cron_runs, so this sets it there).
    ctx.app.deps.database.sqlite.prepare('UPDATE reminder_backlog SET owed_since = ?').run(new Date(down).toISOString());
    expect(await cronRun()).toBe('1 reminder(s) sent');
    await smtp.waitFor(2);
    expect(reminders().map((m) => m.subject)).toEqual(['Your ad has expired: Outage weekend test ad', 'Your ad has expired: Outage weekend test ad']);
  });

  it("after an outage with more than 500 ads expired, the ones past the first run's 500 are told by the next run", async () => {
    // 520 e-mails: through the in-memory mailer of an app of its own (the SMTP sink is slow at it).
    const ctx = await createTestApp();
    onTestFinished(() => ctx.close());
    const owner = await makeUser(ctx, { status: 'approved' });
    const staff = await asAdmin(ctx);
    const cronRun = () => runJob(ctx.app.deps, findJob('renewal-reminders')!).then((r) => r.message);
    const ad = await liveAd(ctx, owner, staff, await placeIn(ctx, 'ny'), { title: 'Outage backlog test ad' });
    const db = ctx.app.deps.database.sqlite;
    const ends = Date.parse((db.prepare('SELECT expires_at FROM ads WHERE id = ?').get(ad.id) as { expires_at: string }).expires_at);
    // Up and running well before the end: nothing to say.
    ctx.clock.set(new Date(ends - 10 * DAY_MS));
    await expireAds(ctx.app.deps);
    expect(await cronRun()).toBe('0 reminder(s) sent');
    // 520 ads of this owner end during a 6-day outage, a minute apart.
    const cols = (db.prepare('PRAGMA table_info(ads)').all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== 'id' && c !== 'expires_at' && c !== 'bump_seq');
    const clone = db.prepare(`INSERT INTO ads (id, expires_at, bump_seq, ${cols.join(', ')}) SELECT ?, ?, ?, ${cols.join(', ')} FROM ads WHERE id = ?`);
    const endOf = (i: number) => new Date(ends - 5 * DAY_MS + i * 60_000).toISOString();
    db.transaction(() => {
      for (let i = 0; i < 519; i++) clone.run(`clone-${String(i).padStart(4, '0')}`, endOf(i), 10_000_000 + i, ad.id);
    })();
    db.prepare('UPDATE ads SET expires_at = ? WHERE id = ?').run(endOf(519), ad.id);
    // Back up a day after the last of them ended: the first run stops at 500 (the oldest), the
    // next one, an hour later, tells the 20 left, which ended four days ago and more.
    ctx.clock.set(new Date(ends + DAY_MS));
    await expireAds(ctx.app.deps);
    expect(await cronRun()).toBe('500 reminder(s) sent');
    ctx.clock.set(new Date(ends + DAY_MS + 60 * 60_000));
    expect(await cronRun()).toBe('20 reminder(s) sent');
    ctx.clock.set(new Date(ends + DAY_MS + 2 * 60 * 60_000));
    expect(await cronRun()).toBe('0 reminder(s) sent');
    const told = db.prepare("SELECT count(*) AS n FROM ads WHERE status = 'expired' AND expired_notice_for = expires_at").get() as { n: number };
    expect(told.n).toBe(520);
    expect(ctx.mailer.sent.filter((m) => m.subject === 'Your ad has expired: Outage backlog test ad')).toHaveLength(520);
  });

  it('notices whose e-mails failed while the mail relay was down for days go out once it is back', async () => {
    const ad = await liveAd(ctx, owner, staff, await placeIn(ctx, 'ny'), { title: 'Relay down test ad' });
    const ends = Date.parse((await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow()).expires_at!);
    ctx.clock.set(new Date(ends - DAY_MS)); // the reminder three days ahead is not this test's
    await ctx.app.deps.db
      .updateTable('ads')
      .set({ reminded_for: new Date(ends).toISOString() })
      .where('id', '=', ad.id)
      .execute();
    expect(await cronRun()).toBe('0 reminder(s) sent');
    const send = ctx.app.deps.mailer.send.bind(ctx.app.deps.mailer);
    ctx.app.deps.mailer.send = async () => {
      throw new Error('relay down');
    };
    // The relay is down for four days; the runs go on every hour (recorded ok), each one failing.
    for (let h = 1; h <= 4 * 24; h++) {
      ctx.clock.set(new Date(ends + h * 60 * 60_000));
      await expireAds(ctx.app.deps);
      expect(await cronRun()).toBe('0 reminder(s) sent, 1 failed (retried next run)');
    }
    ctx.app.deps.mailer.send = send;
    ctx.clock.advance(60 * 60_000);
    expect(await cronRun()).toBe('1 reminder(s) sent');
    ctx.clock.advance(60 * 60_000);
    expect(await cronRun()).toBe('0 reminder(s) sent');
    await smtp.waitFor(1);
    expect(reminders().map((m) => m.subject)).toEqual(['Your ad has expired: Relay down test ad']);
  });

  it('after an outage of over 30 days whose runs purge-old-runs deleted, ads that ended within 30 days are told', async () => {
    const ad = await liveAd(ctx, owner, staff, await placeIn(ctx, 'ny'), { title: 'Long outage test ad' });
    const ends = Date.parse((await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow()).expires_at!);
    ctx.clock.set(new Date(ends - 15 * DAY_MS));
    expect(await cronRun()).toBe('0 reminder(s) sent');
    // Down 35 days from here; the ad ended 20 days ago. At the start, the night's purge runs first.
    ctx.clock.set(new Date(ends + 20 * DAY_MS));
    await runJob(ctx.app.deps, findJob('purge-old-runs')!);
    expect(await ctx.app.deps.db.selectFrom('cron_runs').select('id').where('name', '=', 'renewal-reminders').execute()).toEqual([]);
    await expireAds(ctx.app.deps);
    expect(await cronRun()).toBe('1 reminder(s) sent');
    await smtp.waitFor(1);
    expect(reminders().map((m) => m.subject)).toEqual(['Your ad has expired: Long outage test ad']);
  });

  it('an ad another run holds when this one passes is still told after an outage, once that run has died', async () => {
    const ad = await liveAd(ctx, owner, staff, await placeIn(ctx, 'ny'), { title: 'Held notice test ad' });
    const ends = Date.parse((await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow()).expires_at!);
    ctx.clock.set(new Date(ends - DAY_MS));
    await ctx.app.deps.db
      .updateTable('ads')
      .set({ reminded_for: new Date(ends).toISOString() })
      .where('id', '=', ad.id)
      .execute();
    expect(await cronRun()).toBe('0 reminder(s) sent');
    // Two hours after the end, another process takes the notice and is killed before it leaves;
    // a run a minute later leaves it to that process (its claim is fresh). Then down three days.
    ctx.clock.set(new Date(ends + 2 * 60 * 60_000));
    await expireAds(ctx.app.deps);
    await ctx.app.deps.db
      .updateTable('ads')
      .set({ expired_notice_for: new Date(ends).toISOString(), expired_notice_claimed_at: ctx.clock.now().toISOString() })
      .where('id', '=', ad.id)
      .execute();
    ctx.clock.advance(60_000);
    expect(await cronRun()).toBe('0 reminder(s) sent');
    ctx.clock.set(new Date(ends + 3 * DAY_MS));
    expect(await cronRun()).toBe('1 reminder(s) sent');
    expect(await cronRun()).toBe('0 reminder(s) sent');
    await smtp.waitFor(1);
    expect(reminders().map((m) => m.subject)).toEqual(['Your ad has expired: Held notice test ad']);
  });

  it('speaks the language the owner last used, and stops after the one-click unsubscribe', async () => {
    const place = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, staff, place, { title: 'Anuncio de prueba, centro' });
    await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: owner.email, password: owner.password }, headers: { 'x-locale': 'es' } });
    const row = await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow();
    ctx.clock.set(new Date(Date.parse(row.expires_at!) - DAY_MS));
    await run();
    const mails = await smtp.waitFor(1);
    const mail = reminders()[0] ?? mails[0];
    expect(row.expires_at).toBe('2026-02-14T12:00:00.000Z');
    expect(mail.subject).toBe('Tu anuncio vence el 14 feb 2026, 12:00 UTC: Anuncio de prueba, centro');
    expect(mail.text).toContain(`${ctx.config.publicUrl}/es/admin/dashboard/my-ads?renew=${ad.id}`);
    const oneClick = /^<([^>]+)>$/.exec(mail.headers['list-unsubscribe'])![1].replace(ctx.config.publicUrl, '');

    // A mail provider's one-click POST: cross-site, form body, no cookie.
    const bad = await rawInject(ctx.app, {
      method: 'POST',
      url: oneClick.replace(/t=[\w-]+/, 't=forged'),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('auth.unsubscribe_link_invalid');
    const ok = await rawInject(ctx.app, {
      method: 'POST',
      url: oneClick,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await ctx.app.deps.db.selectFrom('users').select('reminders_opt_out').where('id', '=', owner.id).executeTakeFirstOrThrow()).reminders_opt_out).toBe(
      1,
    );

    await ctx.app.deps.db.updateTable('ads').set({ reminded_for: null }).where('id', '=', ad.id).execute();
    expect(await run()).toBe('0 reminder(s) sent');
  });

  it('none to a suspended or pending owner: their ads are hidden, and they cannot sign in to renew', async () => {
    const place = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, staff, place);
    const ends = Date.parse((await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow()).expires_at!);
    ctx.clock.set(new Date(ends - 2 * DAY_MS));
    for (const status of ['suspended', 'pending'] as const) {
      await ctx.app.deps.db.updateTable('users').set({ status }).where('id', '=', owner.id).execute();
      expect(await run(), status).toBe('0 reminder(s) sent');
    }
    await ctx.app.deps.db.updateTable('users').set({ status: 'approved' }).where('id', '=', owner.id).execute();
    expect(await run()).toBe('1 reminder(s) sent');
  });

  it('an ad disabled (or an owner who unsubscribed) while a run mails the ads before it gets nothing', async () => {
    const place = await placeIn(ctx, 'ny');
    const a = await liveAd(ctx, owner, staff, place, { title: 'First reminder ad title' });
    const b = await liveAd(ctx, owner, staff, place, { title: 'Second reminder ad title' });
    const other = await makeUser(ctx, { status: 'approved' });
    const c = await liveAd(ctx, other, staff, place, { title: 'Third reminder ad title' });
    const ends = Date.parse((await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', c.id).executeTakeFirstOrThrow()).expires_at!);
    // The first ad ends a minute sooner: it is mailed first (the soonest first).
    await ctx.app.deps.db
      .updateTable('ads')
      .set({ expires_at: new Date(ends - 60_000).toISOString() })
      .where('id', '=', a.id)
      .execute();
    ctx.clock.set(new Date(ends - 2 * DAY_MS));
    // While the first mail is on its way, staff take the second ad down and the other owner unsubscribes.
    const send = ctx.app.deps.mailer.send.bind(ctx.app.deps.mailer);
    let first = true;
    ctx.app.deps.mailer.send = async (m) => {
      if (first) {
        first = false;
        await ctx.app.deps.db.updateTable('ads').set({ status: 'disabled' }).where('id', '=', b.id).execute();
        await ctx.app.deps.db.updateTable('users').set({ reminders_opt_out: 1 }).where('id', '=', other.id).execute();
      }
      return send(m);
    };
    expect(await run()).toBe('1 reminder(s) sent');
    await smtp.waitFor(1);
    expect(reminders().map((m) => m.subject)).toEqual([expect.stringContaining('First reminder ad title')]);
  });
});
