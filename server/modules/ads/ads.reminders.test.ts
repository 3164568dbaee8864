import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
/** A run as the scheduler starts it: recorded in cron_runs, which the expiry notices' window reads. */
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
    // to the last recorded run after an outage (next test), so a restored backup is one with no
    // run recorded, or whose last run came after these expiries: both mail nothing old.
    ctx.clock.set(new Date(ends + DAY_MS));
    expect(await cronRun()).toBe('0 reminder(s) sent'); // the backup's last run, a day after the end
    ctx.clock.set(new Date(ends + 5 * DAY_MS));
    await ctx.app.deps.db.updateTable('ads').set({ expired_notice_for: null }).where('id', '=', ad.id).execute();
    expect(await run()).toBe('0 reminder(s) sent');
    await ctx.app.deps.db.deleteFrom('cron_runs').execute();
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
    await ctx.app.deps.db
      .updateTable('cron_runs')
      .set({ started_at: new Date(down).toISOString() })
      .where('name', '=', 'renewal-reminders')
      .execute();
    expect(await cronRun()).toBe('1 reminder(s) sent');
    await smtp.waitFor(2);
    expect(reminders().map((m) => m.subject)).toEqual(['Your ad has expired: Outage weekend test ad', 'Your ad has expired: Outage weekend test ad']);
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
