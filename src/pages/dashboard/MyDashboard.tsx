import { useEffect } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { myDashboardStore } from '../../state/myDashboard';
import { walletsStore } from '../../state/wallets';
import { isAdmin, sessionStore } from '../../state/session';
import { adminOverviewStore } from '../../state/health';
import { formatUsd } from '../../lib/money';
import { routes } from '../../app/routes';
import { walletLabel } from '../../components/market/WalletPicker';
import { LoadState } from '../../components/market/Status';
import { statusLabel } from '../../components/market/labels';
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

/** My dashboard: for staff their overview first; ads by status, wallet balances, and the next things to do. */
export default function MyDashboard() {
  const { t } = useTranslation('market');
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
      {isAdmin(session) && <AdminOverview />}
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
            <strong>{formatUsd(w.amountCents)}</strong>
          </li>
        ))}
      </ul>
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
