import type { AppDeps } from '../../core/deps.ts';
import { composeMail, pageLink, utcMoment, type MailLocale, type TemplateName } from '../../core/mail-templates.ts';
import { unsubscribeApiUrl, unsubscribePageUrl } from '../../core/unsubscribe.ts';
import { DAY_MS } from '../../core/clock.ts';
import { jobReport, type JobReport } from '../../core/report.ts';

/** Reminders go out this long before an ad expires. */
export const REMIND_BEFORE_MS = 3 * DAY_MS;
/** An expiry notice is sent for ads that expired within this window (not for old ones after a restore). */
const EXPIRED_NOTICE_WINDOW_MS = 2 * DAY_MS;

type Due = { id: string; title: string; expires_at: string; owner_id: string; email: string; locale: MailLocale };

/**
 * Cron job renewal-reminders: e-mails the (approved) owner of each approved ad that expires within three days
 * ("renew it"), and of each ad that expired within the last two days ("it expired, renew it"),
 * once per ad and term (the term's expires_at is stored with the ad when the mail is taken), in
 * the owner's language, with the signed one-click link that turns these e-mails off.
 */
export async function renewalReminders(deps: AppDeps): Promise<JobReport> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const db = deps.db;
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
    .where((eb) => eb.or([eb('ads.reminded_for', 'is', null), eb('ads.reminded_for', '<>', eb.ref('ads.expires_at'))]))
    .orderBy('ads.expires_at') // the soonest first
    .limit(500)
    .execute()) as Due[];
  const expired = (await base()
    .where('ads.status', '=', 'expired')
    .where('ads.expires_at', '<=', nowIso)
    .where('ads.expires_at', '>', new Date(now.getTime() - EXPIRED_NOTICE_WINDOW_MS).toISOString())
    .where((eb) => eb.or([eb('ads.expired_notice_for', 'is', null), eb('ads.expired_notice_for', '<>', eb.ref('ads.expires_at'))]))
    .orderBy('ads.expires_at')
    .limit(500)
    .execute()) as Due[];

  let sent = 0;
  let failed = 0;
  const send = async (ad: Due, template: TemplateName, column: 'reminded_for' | 'expired_notice_for') => {
    // Taken first (only one run, or one process, gets it), given back when the mail fails.
    // Still so when its turn comes (a run mails one after another): the same term and status, its
    // owner still approved and not unsubscribed, its city and state still enabled.
    const took = await db
      .updateTable('ads')
      .set({ [column]: ad.expires_at })
      .where('id', '=', ad.id)
      .where('expires_at', '=', ad.expires_at)
      .where('status', '=', template === 'adExpiring' ? 'approved' : 'expired')
      .where((eb) => eb.or([eb(column, 'is', null), eb(column, '<>', ad.expires_at)]))
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
    if (Number(took.numUpdatedRows) !== 1) return;
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
      sent++;
    } catch (err) {
      failed++;
      deps.log.error({ err, adId: ad.id, template }, 'could not e-mail a renewal reminder; the next run tries again');
      await db
        .updateTable('ads')
        .set({ [column]: null })
        .where('id', '=', ad.id)
        .execute();
    }
  };
  for (const ad of expiring) await send(ad, 'adExpiring', 'reminded_for');
  for (const ad of expired) await send(ad, 'adExpired', 'expired_notice_for');
  return jobReport(
    `${sent} reminder(s) sent${failed ? `, ${failed} failed (retried next run)` : ''}`,
    'cron.reminders_sent',
    { count: sent },
    failed ? [{ code: 'cron.reminders_failed', params: { count: failed } }] : [],
  );
}
