import type { AppDeps } from '../../core/deps.ts';
import { composeMail, pageLink, utcMoment, type MailLocale, type TemplateName } from '../../core/mail-templates.ts';
import { unsubscribeApiUrl, unsubscribePageUrl } from '../../core/unsubscribe.ts';
import { DAY_MS, HOUR_MS } from '../../core/clock.ts';
import { jobReport, type JobReport } from '../../core/report.ts';

/** Reminders go out this long before an ad expires. */
export const REMIND_BEFORE_MS = 3 * DAY_MS;
/**
 * An expiry notice is sent for ads that expired within this window, not for old ones (a restored
 * backup must not mail every ad that ever expired); after an outage, from the oldest expiry the
 * runs left unhandled on (expiredNoticeSince).
 */
const EXPIRED_NOTICE_WINDOW_MS = 2 * DAY_MS;
/** After an outage, at most this far back (as long as the runs are kept: cron.jobs.ts RUN_HISTORY_MS). */
const EXPIRED_NOTICE_MAX_MS = 30 * DAY_MS;
/**
 * An ad turns `expired` a few minutes after its end (expire-ads runs every 5): one that ended just
 * before the last complete run may have been expired just after it, so the window starts this much earlier.
 */
const EXPIRY_LAG_MS = HOUR_MS;
/**
 * A claim on a reminder (reminded_for with reminder_claimed_at, migration 0043) still there after
 * this long lost its process on the way (a kill -9): a later run takes it over and sends it.
 * Sending takes at most 90 s (core/mailer.ts timeouts) and a run mails one ad after the other, each
 * claimed at its turn: a live sender is not overtaken.
 */
const CLAIM_MS = 15 * 60_000;
/** A run mails at most this many ads of each kind (the soonest, the oldest first); the rest go next run. */
const BATCH = 500;

/** Migration 0047: where the next run's expiry notices start (one row, id 1). */
type BacklogTables = { reminder_backlog: { id: number; owed_since: string; updated_at: string } };
/** What became of one ad's e-mail in a run: `busy`, another run holds its claim (and may yet die). */
type Outcome = 'sent' | 'failed' | 'busy' | 'gone';

type Due = { id: string; title: string; expires_at: string; owner_id: string; email: string; locale: MailLocale };
type Kind = { column: 'reminded_for' | 'expired_notice_for'; claimedAt: 'reminder_claimed_at' | 'expired_notice_claimed_at' };
const REMINDER: Kind = { column: 'reminded_for', claimedAt: 'reminder_claimed_at' };
const EXPIRED_NOTICE: Kind = { column: 'expired_notice_for', claimedAt: 'expired_notice_claimed_at' };

/**
 * Since when ended ads get the "it expired" notice: the last two days, or, when the runs have left
 * an older one unhandled (reminder_backlog, 0047: the server was down, a run stopped at its 500,
 * the mail relay was), from that one on, at most 30 days back. A restored backup's old expiries
 * came before its last complete run (or it has no row): not mailed.
 */
async function expiredNoticeSince(deps: AppDeps, now: Date): Promise<Date> {
  const mark = await deps.db.withTables<BacklogTables>().selectFrom('reminder_backlog').select('owed_since').where('id', '=', 1).executeTakeFirst();
  const usual = now.getTime() - EXPIRED_NOTICE_WINDOW_MS;
  if (!mark) return new Date(usual);
  const fromMark = Math.max(Date.parse(mark.owed_since) - EXPIRY_LAG_MS, now.getTime() - EXPIRED_NOTICE_MAX_MS);
  return new Date(Math.min(usual, fromMark));
}

/**
 * Where the next run's expiry notices start: the end of the oldest term this run left owed (its
 * e-mail failed, another run still holds it, or it may be past the run's BATCH), else this run's
 * start. Each run writes its own (the last to finish wins): never past an ad it left unhandled.
 */
async function keepBacklog(deps: AppDeps, startedAt: Date, expired: Due[], outcomes: Outcome[]): Promise<void> {
  const owed = expired.filter((_, i) => outcomes[i] === 'failed' || outcomes[i] === 'busy').map((ad) => Date.parse(ad.expires_at));
  if (expired.length >= BATCH) owed.push(Date.parse(expired[expired.length - 1].expires_at)); // the rest come after it
  const owedSince = new Date(Math.min(startedAt.getTime(), ...owed)).toISOString();
  const updatedAt = deps.clock.now().toISOString();
  await deps.db
    .withTables<BacklogTables>()
    .insertInto('reminder_backlog')
    .values({ id: 1, owed_since: owedSince, updated_at: updatedAt })
    .onConflict((oc) => oc.column('id').doUpdateSet({ owed_since: owedSince, updated_at: updatedAt }))
    .execute();
}

/**
 * Cron job renewal-reminders: e-mails the (approved) owner of each approved ad that expires within three days
 * ("renew it"), and of each ad that expired within the last two days, or since the oldest one the
 * runs left unhandled (an outage, a backlog past 500, a mail relay down), at most 30 days back
 * ("it expired, renew it"), once per ad and term (the term's expires_at is stored with the ad when
 * the mail is taken, with the time it was taken until it has left), in the owner's language, with
 * the signed one-click link that turns these e-mails off.
 */
export async function renewalReminders(deps: AppDeps): Promise<JobReport> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const db = deps.db;
  const staleBefore = new Date(now.getTime() - CLAIM_MS).toISOString();
  const expiredSince = await expiredNoticeSince(deps, now);
  const base = () =>
    db
      .selectFrom('ads')
      .innerJoin('users', 'users.id', 'ads.owner_id')
      // in a city or state staff disabled the ad shows nowhere and renewing it is refused: move it first
      .innerJoin('cities', (j) => j.onRef('cities.id', '=', 'ads.city_id').on('cities.enabled', '=', 1))
      .innerJoin('states', (j) => j.onRef('states.id', '=', 'ads.state_id').on('states.enabled', '=', 1))
      .select(['ads.id', 'ads.title', 'ads.expires_at', 'ads.owner_id', 'users.email', 'users.locale'])
      .where('users.deleted_at', 'is', null)
      .where('users.status', '=', 'approved') // a pending or suspended owner's ads are hidden: nothing to renew
      .where('users.reminders_opt_out', '=', 0)
      .where('ads.expires_at', 'is not', null);
  const expiring = (await base()
    .where('ads.status', '=', 'approved')
    .where('ads.expires_at', '>', nowIso)
    .where('ads.expires_at', '<=', new Date(now.getTime() + REMIND_BEFORE_MS).toISOString())
    .where((eb) =>
      eb.or([
        eb('ads.reminded_for', 'is', null),
        eb('ads.reminded_for', '<>', eb.ref('ads.expires_at')),
        eb('ads.reminder_claimed_at', '<=', staleBefore), // its process died on the way
      ]),
    )
    .orderBy('ads.expires_at') // the soonest first
    .limit(BATCH)
    .execute()) as Due[];
  const expired = (await base()
    .where('ads.status', '=', 'expired')
    .where('ads.expires_at', '<=', nowIso)
    .where('ads.expires_at', '>', expiredSince.toISOString())
    .where((eb) =>
      eb.or([
        eb('ads.expired_notice_for', 'is', null),
        eb('ads.expired_notice_for', '<>', eb.ref('ads.expires_at')),
        // a claim still out: taken over once stale, else left to its holder but counted as owed
        // (keepBacklog), as that process may yet die on the way
        eb('ads.expired_notice_claimed_at', 'is not', null),
      ]),
    )
    .orderBy('ads.expires_at')
    .limit(BATCH)
    .execute()) as Due[];

  let sent = 0;
  let failed = 0;
  const send = async (ad: Due, template: TemplateName, { column, claimedAt }: Kind): Promise<Outcome> => {
    // Taken first with the time (only one run, or one process, gets it), given back when the mail
    // fails, marked sent (the time cleared) once it has left; a claim its process kept past
    // CLAIM_MS (it died on the way) is taken over, by one run only.
    // Still so when its turn comes (a run mails one after another): the same term and status, its
    // owner still approved and not unsubscribed, its city and state still enabled.
    const claim = deps.clock.now().toISOString();
    const took = await db
      .updateTable('ads')
      .set({ [column]: ad.expires_at, [claimedAt]: claim })
      .where('id', '=', ad.id)
      .where('expires_at', '=', ad.expires_at)
      .where('status', '=', template === 'adExpiring' ? 'approved' : 'expired')
      .where((eb) => eb.or([eb(column, 'is', null), eb(column, '<>', ad.expires_at), eb(claimedAt, '<=', staleBefore)]))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.id')
            .whereRef('users.id', '=', 'ads.owner_id')
            .where('users.deleted_at', 'is', null)
            .where('users.status', '=', 'approved')
            .where('users.reminders_opt_out', '=', 0),
        ),
      )
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('cities')
            .innerJoin('states', 'states.id', 'cities.state_id')
            .select('cities.id')
            .whereRef('cities.id', '=', 'ads.city_id')
            .where('cities.enabled', '=', 1)
            .where('states.enabled', '=', 1),
        ),
      )
      .executeTakeFirst();
    if (Number(took.numUpdatedRows) !== 1) {
      // Not taken: sent, or no longer owed (renewed, unsubscribed…), or another run holds it.
      const row = await db.selectFrom('ads').select(['status', 'expires_at', column, claimedAt]).where('id', '=', ad.id).executeTakeFirst();
      const status = template === 'adExpiring' ? 'approved' : 'expired';
      const owed = row?.expires_at === ad.expires_at && row.status === status && (row[column] !== ad.expires_at || row[claimedAt] !== null);
      return owed ? 'busy' : 'gone';
    }
    // This run's claim, not one a later run took over meanwhile.
    const ours = () => db.updateTable('ads').where('id', '=', ad.id).where(column, '=', ad.expires_at).where(claimedAt, '=', claim);
    try {
      await deps.mailer.send(
        composeMail(
          template,
          ad.locale,
          ad.email,
          {
            title: ad.title,
            date: utcMoment(ad.expires_at, ad.locale),
            link: pageLink(deps.config.publicUrl, ad.locale, `/admin/dashboard/my-ads?renew=${ad.id}`),
          },
          { unsubscribeUrl: unsubscribePageUrl(deps.config, ad.owner_id, ad.locale), oneClickUrl: unsubscribeApiUrl(deps.config, ad.owner_id) },
        ),
      );
    } catch (err) {
      failed++;
      deps.log.error({ err, adId: ad.id, template }, 'could not e-mail a renewal reminder; the next run tries again');
      await ours()
        .set({ [column]: null, [claimedAt]: null })
        .execute();
      return 'failed';
    }
    sent++;
    await ours()
      .set({ [claimedAt]: null })
      .execute();
    return 'sent';
  };
  for (const ad of expiring) await send(ad, 'adExpiring', REMINDER);
  const outcomes: Outcome[] = [];
  for (const ad of expired) outcomes.push(await send(ad, 'adExpired', EXPIRED_NOTICE));
  await keepBacklog(deps, now, expired, outcomes);
  return jobReport(
    `${sent} reminder(s) sent${failed ? `, ${failed} failed (retried next run)` : ''}`,
    'cron.reminders_sent',
    { count: sent },
    failed ? [{ code: 'cron.reminders_failed', params: { count: failed } }] : [],
  );
}
