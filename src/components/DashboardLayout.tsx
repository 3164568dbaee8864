import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { routes } from '../app/routes';
import { sessionStore, isAdmin, isMaster, logout } from '../state/session';
import { useSocket } from '../state/socket';
import styles from './DashboardLayout.module.css';

const SMALL_SCREEN = '(max-width: 767px)';
const DRAWER_CLOSE_DELAY_MS = 100; // seed §9: the drawer closes 100 ms after a link is clicked

function subscribeSmallScreen(onChange: () => void): () => void {
  const query = window.matchMedia?.(SMALL_SCREEN);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}
const isSmallScreen = () => window.matchMedia?.(SMALL_SCREEN).matches ?? false;
const useSmallScreen = () => useSyncExternalStore(subscribeSmallScreen, isSmallScreen, () => false);

type NavLink = [href: string, label: string];

function isCurrent(location: string, href: string): boolean {
  if (href === routes.dashboard) return location === href || location === `${href}/`;
  return location === href || location.startsWith(`${href}/`);
}

/**
 * Dashboard shell: a sidebar of 260 px that collapses to a mini 80 px; under 768 px the sidebar
 * becomes a drawer opened from the menu button. Starts the real-time socket for signed-in pages.
 */
export function DashboardLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('dashboard');
  const { session } = useSnapshot(sessionStore);
  const [location, navigate] = useLocation();
  const small = useSmallScreen();
  const [mini, setMini] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useSocket();

  useEffect(
    () => () => {
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setDrawerOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  const onLinkClick = () => {
    if (!small) return;
    if (closeTimer.current) clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setDrawerOpen(false), DRAWER_CLOSE_DELAY_MS);
  };

  const links: NavLink[] = [
    [routes.dashboard, t('nav.dashboard')],
    [routes.createAds, t('nav.createAds')],
    [routes.myAds, t('nav.myAds')],
    [routes.myCart, t('nav.myCart')],
    [routes.myWallet, t('nav.myWallet')],
    [routes.myProfile, t('nav.myProfile')],
  ];
  const admin: NavLink[] = isAdmin(session)
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
  const master: NavLink[] = isMaster(session)
    ? [
        [routes.masterPendingUsers, t('nav.pendingUsers')],
        [routes.masterApprovedUsers, t('nav.approvedUsers')],
      ]
    : [];

  const list = (items: NavLink[]) => (
    <ul>
      {items.map(([href, label]) => (
        <li key={href}>
          <Link href={href} title={label} aria-current={isCurrent(location, href) ? 'page' : undefined} onClick={onLinkClick}>
            {label}
          </Link>
        </li>
      ))}
    </ul>
  );

  const expanded = small ? drawerOpen : !mini;
  return (
    <div className={styles.shell} data-mini={!small && mini} data-drawer={small && drawerOpen ? 'open' : 'closed'}>
      <header className={styles.top}>
        <button
          type="button"
          className="btn btn-simple"
          aria-label={t('nav.toggleSidebar')}
          aria-expanded={expanded}
          aria-controls="dashboard-nav"
          onClick={() => (small ? setDrawerOpen(!drawerOpen) : setMini(!mini))}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <Link href="~/" className={styles.brand}>
          XG
        </Link>
        <span className={styles.who}>{session.email}</span>
        <button
          type="button"
          className="btn btn-sm btn-white"
          onClick={async () => {
            await logout().catch(() => undefined); // the client forgets the session either way
            navigate('/');
          }}
        >
          {t('nav.logout')}
        </button>
      </header>
      <nav id="dashboard-nav" className={styles.sidebar} aria-label={t('nav.label')}>
        {list(links)}
        {admin.length > 0 && (
          <>
            <h2>{t('nav.adminSection')}</h2>
            {list(admin)}
          </>
        )}
        {master.length > 0 && (
          <>
            <h2>{t('nav.masterSection')}</h2>
            {list(master)}
          </>
        )}
      </nav>
      {small && drawerOpen && <div className={styles.backdrop} aria-hidden="true" onClick={() => setDrawerOpen(false)} />}
      <main id="main" className={styles.main}>
        {children}
      </main>
      <footer className={styles.footer}>© {new Date().getFullYear()} XG Marketplace</footer>
    </div>
  );
}
