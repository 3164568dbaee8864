import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { myDashboardStore, type ActivityItem } from '../../state/myDashboard';
import { walletsStore } from '../../state/wallets';
import { isAdmin, sessionStore } from '../../state/session';
import { adminOverviewStore } from '../../state/health';
import { sendPublicMessage } from '../../state/socket';
import { PUBLIC_MESSAGE_MAX } from '../../api/socket';
import { formatUsd } from '../../lib/money';
import { routes } from '../../app/routes';
import { ledgerAbout, walletLabel } from '../../components/market/WalletPicker';
import { LoadState } from '../../components/market/Status';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { TextAreaField } from '../../components/forms/TextAreaField';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { useFormAction } from '../../components/forms/useFormAction';
import { dateTimeLabel, statusLabel } from '../../components/market/labels';
import styles from '../../components/market/market.module.css';

const ORDER = ['approved', 'in_review', 'unpaid', 'rejected', 'disabled', 'expired'] as const;

/** Staff: what waits for them (ads to review, open reports, failing health checks), each a link to its screen. */
function AdminOverview() {
  const { t } = useTranslation('dashboard');
  const snap = useSnapshot(adminOverviewStore.state);
  useEffect(() => {
    void adminOverviewStore.load();
  }, []);
  const items = [
    { key: 'pendingAds', href: routes.adminPendingAds, count: snap.data?.pendingAds },
    { key: 'openReports', href: routes.adminReports, count: snap.data?.openReports },
    { key: 'failingChecks', href: routes.adminHealthCheck, count: snap.data?.failingChecks, alarm: true },
  ] as const;
  return (
    <section aria-labelledby="admin-overview-title">
      <h2 id="admin-overview-title">{t('overview.title')}</h2>
      <LoadState loading={snap.loading && !snap.data} error={snap.error} />
      {snap.data && (
        <ul className={styles.stats}>
          {items.map((i) => (
            <li key={i.key}>
              <Link href={i.href}>{t(`overview.${i.key}`, { count: i.count ?? 0 })}</Link>
              {'alarm' in i && (i.count ?? 0) > 0 && <span className={`${styles.badge} ${styles.badgeBad}`}>{t('overview.needsAttention')}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const NO_TEXT = { en: '', es: '', pt: '' };
type Texts = typeof NO_TEXT;
const LANGUAGES = ['en', 'es', 'pt'] as const;

/**
 * Staff: an announcement to everyone connected now (the server's `publicMessage`), e.g. a
 * maintenance window. English is required (what a page in a language left empty shows); it goes
 * out only after "Send to everyone connected now?", and says how many connections it reached.
 */
function AnnounceForm() {
  const { t } = useTranslation('dashboard');
  const [texts, setTexts] = useState<Texts>(NO_TEXT);
  const [enError, setEnError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const action = useFormAction('dashboard');

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const missing = !texts.en.trim();
    setEnError(missing ? t('announcement.form.enRequired') : null);
    if (missing) return document.getElementById('announce-en')?.focus();
    action.setError(null);
    action.setSuccess(null);
    setConfirming(true);
  }

  async function send() {
    const sent = await action.run(() => sendPublicMessage(texts));
    setConfirming(false);
    if (sent === undefined) return; // refused: the error shows, the texts stay to be fixed
    action.setSuccess((t) => t('announcement.form.sent', { count: sent }));
    setTexts(NO_TEXT);
  }

  return (
    <section aria-labelledby="announce-title">
      <h2 id="announce-title">{t('announcement.form.title')}</h2>
      <p>{t('announcement.form.intro')}</p>
      <form noValidate onSubmit={onSubmit}>
        <FormError message={action.error} />
        <FormSuccess message={action.success} />
        {LANGUAGES.map((lng) => (
          <TextAreaField
            key={lng}
            id={`announce-${lng}`}
            lang={lng}
            label={t(`announcement.form.${lng}`)}
            hint={t('announcement.form.hint', { max: PUBLIC_MESSAGE_MAX })}
            maxLength={PUBLIC_MESSAGE_MAX}
            rows={3}
            required={lng === 'en'}
            value={texts[lng]}
            error={lng === 'en' ? enError : null}
            onChange={(v) => setTexts((x) => ({ ...x, [lng]: v }))}
          />
        ))}
        <SubmitButton busy={action.busy}>{t('announcement.form.send')}</SubmitButton>
      </form>
      {confirming && (
        <ConfirmDialog
          title={t('announcement.form.confirmTitle')}
          confirmLabel={action.busy ? t('announcement.form.sending') : t('announcement.form.confirm')}
          busy={action.busy}
          onConfirm={() => void send()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('announcement.form.confirmText')}</p>
          <blockquote lang="en" style={{ whiteSpace: 'pre-line' }}>
            {texts.en.trim()}
          </blockquote>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The words of one line of the recent activity (the line links where it shows: my ads for a decision on an ad, my wallet for money). */
function activityText(t: (key: string, o?: Record<string, unknown>) => string, item: ActivityItem, lng: string): string {
  if (item.source === 'ad') {
    const reason = item.reason || t('myAds.noReason');
    return t(`dash.activity.${item.event}`, { title: item.title, reason });
  }
  const amount = item.amountCents > 0 ? `+${formatUsd(item.amountCents, lng)}` : formatUsd(item.amountCents, lng);
  const kind = t(`payments:kinds.${item.kind}`, { defaultValue: item.kind });
  const about = ledgerAbout(t, item)?.text;
  const what = about ? t('payments:about.line', { kind, about }) : kind;
  return t('dash.activity.money', { what, amount, wallet: walletLabel(t, item) });
}

/** The latest decisions on the user's ads and money moving in their wallets, newest first, dated in the page's language. */
function RecentActivity({ items }: { items: readonly ActivityItem[] | null }) {
  // 'payments' holds the names of ledger movements (payments:kinds.*); namespaces load only when
  // asked for, and nothing else on this page asks for it.
  const { t, i18n } = useTranslation(['market', 'payments']);
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">{t('dash.activity.title')}</h2>
      {items && !items.length && <p>{t('dash.activity.empty')}</p>}
      {!!items?.length && (
        // An ad's title can hold a word longer than a phone is wide (a pasted link): it breaks, the page keeps its width.
        <ul style={{ overflowWrap: 'anywhere' }}>
          {items.map((item) => (
            // An ad can show more than once (its decision, and those on its edits).
            <li key={item.source === 'ad' ? `ad-${item.adId}-${item.event}-${item.at}` : `money-${item.id}`}>
              <time dateTime={item.at} className={styles.meta}>
                {dateTimeLabel(item.at, i18n.language)}
              </time>{' '}
              <Link href={item.source === 'ad' ? routes.myAds : routes.myWallet}>{activityText(t, item, i18n.language)}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** My dashboard: for staff their overview and announcements first; ads by status, wallet balances, recent activity, and the next things to do. */
export default function MyDashboard() {
  const { t, i18n } = useTranslation('market');
  const snap = useSnapshot(myDashboardStore.state);
  const wallets = useSnapshot(walletsStore.state);
  const { session } = useSnapshot(sessionStore);

  useEffect(() => {
    void myDashboardStore.load();
  }, []);

  return (
    <section>
      <h1>{t('dash.title')}</h1>
      {session.userStatus === 'pending' && <p className="alert alert-info">{t('dash.pendingUser')}</p>}
      {isAdmin(session) && (
        <>
          <AdminOverview />
          <AnnounceForm />
        </>
      )}
      <LoadState loading={snap.loading && !snap.data} error={snap.error} />
      <h2>{t('dash.ads')}</h2>
      <ul className={styles.stats}>
        <li>
          <span>{t('dash.online')}</span>
          <strong>{snap.data?.online ?? 0}</strong>
        </li>
        {ORDER.map((s) => (
          <li key={s}>
            <span>{statusLabel(t, s)}</span>
            <strong>{snap.data?.counts[s] ?? 0}</strong>
          </li>
        ))}
      </ul>
      <h2>{t('wallet.balances')}</h2>
      <ul className={styles.stats}>
        {(wallets.data ?? []).map((w) => (
          <li key={w.id}>
            <span>{walletLabel(t, w)}</span>
            <strong>{formatUsd(w.amountCents, i18n.language)}</strong>
          </li>
        ))}
      </ul>
      <RecentActivity items={snap.data?.activity ?? null} />
      <h2>{t('dash.next')}</h2>
      <ul>
        <li>
          <Link href={routes.createAds}>{t('dash.linkCreate')}</Link>
        </li>
        <li>
          <Link href={routes.myCart}>{t('dash.linkCart', { count: snap.data?.counts.unpaid ?? 0 })}</Link>
        </li>
        <li>
          <Link href={routes.myAds}>{t('dash.linkAds')}</Link>
        </li>
        <li>
          <Link href={routes.myWallet}>{t('dash.linkWallet')}</Link>
        </li>
        <li>
          <Link href={routes.myProfile}>{t('dash.linkProfile')}</Link>
        </li>
      </ul>
    </section>
  );
}
