import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { routes } from '../app/routes';
import { sessionStore, isAdmin, isMaster, logout } from '../state/session';
import styles from './DashboardLayout.module.css';

/** Dashboard shell: sidebar 260 px, collapsible to a mini 80 px. */
export function DashboardLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('dashboard');
  const { session } = useSnapshot(sessionStore);
  const [mini, setMini] = useState(false);
  const [, navigate] = useLocation();
  const links: Array<[string, string]> = [
    [routes.dashboard, t('nav.dashboard')],
    [routes.createAds, t('nav.createAds')],
    [routes.myAds, t('nav.myAds')],
    [routes.myCart, t('nav.myCart')],
    [routes.myWallet, t('nav.myWallet')],
    [routes.myProfile, t('nav.myProfile')],
  ];
  const admin: Array<[string, string]> = isAdmin(session)
    ? [
        [routes.adminPendingAds, t('nav.pendingAds')],
        [routes.adminApprovedAds, t('nav.approvedAds')],
        [routes.adminReports, t('nav.reports')],
        [routes.adminPricing, t('nav.pricing')],
        [routes.adminPromoCodes, t('nav.promoCodes')],
        [routes.adminLocations, t('nav.locations')],
        [routes.adminHealthCheck, t('nav.healthCheck')],
        [routes.adminCronJobs, t('nav.cronJobs')],
        [routes.adminSms, t('nav.sms')],
        [routes.adminPaymentServer, t('nav.paymentServer')],
        [routes.adminAuditLog, t('nav.auditLog')],
      ]
    : [];
  const master: Array<[string, string]> = isMaster(session)
    ? [
        [routes.masterPendingUsers, t('nav.pendingUsers')],
        [routes.masterApprovedUsers, t('nav.approvedUsers')],
      ]
    : [];
  return (
    <div className={styles.shell} data-mini={mini}>
      <header className={styles.top}>
        <button type="button" className="btn btn-simple" aria-label={t('nav.toggleSidebar')} aria-expanded={!mini} onClick={() => setMini(!mini)}>
          ☰
        </button>
        <Link href="~/" className={styles.brand}>XG</Link>
        <span className={styles.who}>{session.email}</span>
        <button type="button" className="btn btn-sm btn-white" onClick={async () => { await logout(); navigate('/'); }}>
          {t('nav.logout')}
        </button>
      </header>
      <nav className={styles.sidebar} aria-label={t('nav.label')}>
        <ul>
          {links.map(([href, label]) => (
            <li key={href}><Link href={href} title={label}>{label}</Link></li>
          ))}
        </ul>
        {admin.length > 0 && (
          <>
            <h2>{t('nav.adminSection')}</h2>
            <ul>{admin.map(([href, label]) => <li key={href}><Link href={href} title={label}>{label}</Link></li>)}</ul>
          </>
        )}
        {master.length > 0 && (
          <>
            <h2>{t('nav.masterSection')}</h2>
            <ul>{master.map(([href, label]) => <li key={href}><Link href={href} title={label}>{label}</Link></li>)}</ul>
          </>
        )}
      </nav>
      <main id="main" className={styles.main}>{children}</main>
      <footer className={styles.footer}>© {new Date().getFullYear()} XG Marketplace</footer>
    </div>
  );
}
