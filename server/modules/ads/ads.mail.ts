import type { AppDeps } from '../../core/deps.ts';
import { composeMail, pageLink, utcMoment, type TemplateName } from '../../core/mail-templates.ts';
import { formatUsd } from '../../../contract/amount.ts';

/** What an e-mail about an ad needs. */
export interface AdMail {
  ownerId: string;
  adId: string;
  template: Extract<
    TemplateName,
    'adApproved' | 'adApprovedOffline' | 'adRejected' | 'adDisabled' | 'adEnabled' | 'revisionApproved' | 'revisionApprovedHidden' | 'revisionRejected'
  >;
  title: string;
  reason?: string;
  expiresAt?: string | null;
  /** What a rejection gave back, and to which wallet; none when the ad cost nothing. */
  refund?: { cents: number; wallet: 'USD' | 'promo' };
}

/**
 * Tells owners about decisions on their ads (after the transaction committed), each in the
 * language the owner last used, with a link to the ad (approved), to edit it (rejected) or to My
 * ads, and where to ask (the contact page). Service mail: sent whatever the reminder opt-out says.
 * A failing mail is logged; the decision stands.
 */
export async function mailOwners(deps: AppDeps, mails: AdMail[]): Promise<void> {
  for (const m of mails) {
    const u = await deps.db
      .selectFrom('users')
      .select(['email', 'locale', 'status'])
      .where('id', '=', m.ownerId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!u) continue;
    // An approved ad of an account not approved (yet, or any more) is hidden: the mail must not say it shows.
    const hidden = (m.template === 'adApproved' || m.template === 'adApprovedOffline') && u.status !== 'approved';
    const template = hidden ? 'adApprovedAccountPending' : m.template;
    const path =
      hidden || template === 'revisionApprovedHidden' || template === 'adApprovedOffline' || template === 'adDisabled' || template === 'adEnabled'
        ? '/admin/dashboard/my-ads'
        : m.template === 'adApproved' || m.template === 'revisionApproved'
          ? `/ad/${m.adId}`
          : `/admin/dashboard/my-ads?edit=${m.adId}`;
    const link = pageLink(deps.config.publicUrl, u.locale, path);
    const refund = (wallet: 'USD' | 'promo') => (m.refund?.wallet === wallet && m.refund.cents > 0 ? formatUsd(m.refund.cents, u.locale) : '');
    try {
      await deps.mailer.send(
        composeMail(template, u.locale, u.email, {
          title: m.title,
          reason: m.reason ?? '',
          date: m.expiresAt ? utcMoment(m.expiresAt, u.locale) : '',
          usdRefund: refund('USD'),
          promoRefund: refund('promo'),
          contact: pageLink(deps.config.publicUrl, u.locale, '/contact-us'),
          link,
        }),
      );
    } catch (err) {
      deps.log.error({ err, adId: m.adId, template: m.template }, 'could not e-mail the owner about a decision on their ad');
    }
  }
}
