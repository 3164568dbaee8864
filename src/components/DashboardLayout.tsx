import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { routes } from '../app/routes';
import { sessionStore, isAdmin, isMaster, logout } from '../state/session';
import { dismissPublicMessage, socketStore, useSocket } from '../state/socket';
import { dateTimeLabel } from './market/labels';
import { NavIcon, type IconName } from './DashboardIcons';
import { LanguageSwitcher } from './public/LanguageSwitcher';
import { trapTab } from '../lib/focus-trap';
import styles from './DashboardLayout.module.css';

// Staff only: the sandbox banner and its question to the server.
const SandboxBanner = lazy(() => import('./SandboxBanner'));

const SMALL_SCREEN = '(max-width: 767px)';
const DRAWER_CLOSE_DELAY_MS = 100; // seed §9: the drawer closes 100 ms after a link is clicked

function subscribeSmallScreen(onChange: () => void): () => void {
  const query = window.matchMedia?.(SMALL_SCREEN);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}
const isSmallScreen = () => window.matchMedia?.(SMALL_SCREEN).matches ?? false;
const useSmallScreen = () => useSyncExternalStore(subscribeSmallScreen, isSmallScreen, () => false);

type NavLink = [href: string, label: string, icon: IconName];

const announcementLook = { display: 'flex', alignItems: 'flex-start', gap: 12, margin: 0, borderRadius: 0 } as const;

/**
 * The latest staff announcement (`publicMessage`), on every signed-in page until dismissed or
 * replaced: in the page's language when staff wrote it, else in English, with when it was sent.
 * A polite status: read out when it arrives, without cutting off what is being read.
 */
function PublicMessageBanner() {
  const { t, i18n } = useTranslation('dashboard');
  const { publicMessage } = useSnapshot(socketStore);
  if (!publicMessage) return null;
  const lng = i18n.language;
  const text = (lng === 'es' || lng === 'pt' ? publicMessage.text[lng] : undefined) ?? publicMessage.text.en;
  return (
    <div role="status" className="alert alert-info" style={announcementLook}>
      <p style={{ margin: 0, flex: 1 }}>
        <strong>{t('announcement.label')}</strong> · <time dateTime={publicMessage.at}>{dateTimeLabel(publicMessage.at, lng)}</time>
        <span style={{ display: 'block', whiteSpace: 'pre-line' }}>{text}</span>
      </p>
      <button type="button" className="btn btn-sm btn-simple" aria-label={t('announcement.dismiss')} onClick={dismissPublicMessage}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/** How long the socket may be down before the page says so: past the first reconnects (1 s, then 2 s, of backoff). */
const LIVE_PAUSED_AFTER_MS = 5000;

/**
 * "Live updates are paused": the socket, connected once on this page, has been down for more than
 * a few seconds (not while it first connects, not during a quick reconnect), so what the page shows
 * may be behind. A polite status line, gone once connected again.
 */
function LiveUpdatesPaused() {
  const { t } = useTranslation('dashboard');
  const { connected } = useSnapshot(socketStore);
  const signedIn = useSnapshot(sessionStore).session.isAuthenticated;
  const [wasConnected, setWasConnected] = useState(false);
  const [downLong, setDownLong] = useState(false);
  // Adjusted while rendering (React's pattern for state that follows other state): connected once
  // (for this user), and the wait started over whenever it is not waiting.
  if (connected !== wasConnected && (connected || !signedIn)) setWasConnected(connected);
  const waiting = signedIn && wasConnected && !connected;
  if (!waiting && downLong) setDownLong(false);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setDownLong(true), LIVE_PAUSED_AFTER_MS);
    return () => clearTimeout(timer);
  }, [waiting]);
  if (!waiting || !downLong) return null;
  return (
    <p role="status" className="alert alert-info" style={{ ...announcementLook, padding: '6px 14px', fontSize: 14 }}>
      {t('live.paused')}
    </p>
  );
}

function isCurrent(location: string, href: string): boolean {
  if (href === routes.dashboard) return location === href || location === `${href}/`;
  return location === href || location.startsWith(`${href}/`);
}

/**
 * Dashboard shell: a sidebar of 260 px that collapses to a mini 80 px of icons (each link's name
 * shown as a tooltip); under 768 px the sidebar
 * becomes a drawer opened from the menu button. Starts the real-time socket for signed-in pages,
 * shows the staff announcements it brings, and says when it has been down for a while.
 */
export function DashboardLayout({ children }: { children: ReactNode }) {
  // 'market' holds the words of ConfirmDialog, which every staff screen opens: loaded with the
  // shell, so opening a first dialog never suspends the page (hidden while it suspends, the page
  // would drop the focus of the button that opened the dialog, and focus could not go back to it).
  const { t } = useTranslation(['dashboard', 'moderation', 'public', 'market']);
  const { session } = useSnapshot(sessionStore);
  const [location, navigate] = useLocation();
  const small = useSmallScreen();
  const [mini, setMini] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  const main = useRef<HTMLElement>(null);
  useSocket();

  useEffect(
    () => () => {
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );
  // The open drawer covers the page: focus moves to its first link, and Escape closes it and puts
  // focus back on the menu button (Tab stays in the drawer: see the nav's onKeyDown).
  useEffect(() => {
    if (!drawerOpen) return;
    nav.current?.querySelector<HTMLElement>('a[href]')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setDrawerOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  const onLinkClick = () => {
    if (!small) return;
    if (closeTimer.current) clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => {
      setDrawerOpen(false);
      // The link just followed is hidden with the drawer: focus goes to the new page's content.
      main.current?.focus();
    }, DRAWER_CLOSE_DELAY_MS);
  };

  const links: NavLink[] = [
    [routes.dashboard, t('nav.dashboard'), 'dashboard'],
    [routes.createAds, t('nav.createAds'), 'create'],
    [routes.myAds, t('nav.myAds'), 'list'],
    [routes.myCart, t('nav.myCart'), 'cart'],
    [routes.myWallet, t('nav.myWallet'), 'wallet'],
    [routes.myProfile, t('nav.myProfile'), 'user'],
  ];
  const admin: NavLink[] = isAdmin(session)
    ? [
        [routes.adminPendingAds, t('nav.pendingAds'), 'inbox'],
        [routes.adminApprovedAds, t('nav.approvedAds'), 'approved'],
        [routes.adminReports, t('nav.reports'), 'flag'],
        [routes.adminSearchAds, t('moderation:nav.searchAds'), 'search'],
        [routes.adminScreeningLog, t('moderation:nav.screeningLog'), 'shield'],
        [routes.adminPageViews, t('moderation:nav.pageViews'), 'eye'],
        [routes.adminPricing, t('nav.pricing'), 'tag'],
        [routes.adminPromoCodes, t('nav.promoCodes'), 'gift'],
        [routes.adminLocations, t('nav.locations'), 'pin'],
        [routes.adminHealthCheck, t('nav.healthCheck'), 'pulse'],
        [routes.adminCronJobs, t('nav.cronJobs'), 'clock'],
        [routes.adminSms, t('nav.sms'), 'message'],
        [routes.adminPaymentServer, t('nav.paymentServer'), 'server'],
        [routes.adminAuditLog, t('nav.auditLog'), 'log'],
      ]
    : [];
  const master: NavLink[] = isMaster(session)
    ? [
        [routes.masterPendingUsers, t('nav.pendingUsers'), 'userPlus'],
        [routes.masterApprovedUsers, t('nav.approvedUsers'), 'users'],
      ]
    : [];

  // A group's label is no heading (it would come before the page's own h1 in a screen reader's
  // list of headings): it names the group's list instead.
  const list = (items: NavLink[], labelledBy?: string) => (
    <ul aria-labelledby={labelledBy}>
      {items.map(([href, label, icon]) => (
        <li key={href}>
          {/* The name stays in the link (its accessible name); in the mini sidebar it shows as a tooltip on hover and focus. */}
          <Link href={href} aria-current={isCurrent(location, href) ? 'page' : undefined} onClick={onLinkClick}>
            <NavIcon name={icon} />
            <span className={styles.label}>{label}</span>
          </Link>
        </li>
      ))}
    </ul>
  );

  const expanded = small ? drawerOpen : !mini;
  return (
    <div className={styles.shell} data-mini={!small && mini} data-drawer={small && drawerOpen ? 'open' : 'closed'}>
      <a className={styles.skip} href="#main">
        {t('public:skipToContent')}
      </a>
      <header className={styles.top}>
        <button
          ref={toggle}
          type="button"
          className="btn btn-simple"
          aria-label={t('nav.toggleSidebar')}
          aria-expanded={expanded}
          aria-controls="dashboard-nav"
          onClick={() => (small ? setDrawerOpen(!drawerOpen) : setMini(!mini))}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <Link href="/" className={styles.brand}>
          XG
        </Link>
        <span className={styles.who}>{session.email}</span>
        {/* The public site's switcher: each language's link is this same dashboard page (seed §2). */}
        <nav className={styles.languages} aria-label={t('public:nav.language')}>
          <LanguageSwitcher />
        </nav>
        <button
          type="button"
          className="btn btn-sm btn-white"
          onClick={async () => {
            // The tab forgets the user's data either way; a failure leaves them signed in, and the
            // page they land on says so (SignOutFailed, from the session store).
            await logout().catch(() => undefined);
            navigate('/');
          }}
        >
          {t('nav.logout')}
        </button>
      </header>
      <nav
        ref={nav}
        id="dashboard-nav"
        className={styles.sidebar}
        aria-label={t('nav.label')}
        onKeyDown={(e) => small && drawerOpen && trapTab(e, nav.current)}
      >
        {list(links)}
        {admin.length > 0 && (
          <>
            <p id="dashboard-nav-admin" className={styles.group}>
              {t('nav.adminSection')}
            </p>
            {list(admin, 'dashboard-nav-admin')}
          </>
        )}
        {master.length > 0 && (
          <>
            <p id="dashboard-nav-master" className={styles.group}>
              {t('nav.masterSection')}
            </p>
            {list(master, 'dashboard-nav-master')}
          </>
        )}
      </nav>
      {small && drawerOpen && <div className={styles.backdrop} aria-hidden="true" onClick={() => setDrawerOpen(false)} />}
      <main ref={main} id="main" className={styles.main} tabIndex={-1}>
        <LiveUpdatesPaused />
        <PublicMessageBanner />
        {isAdmin(session) && (
          <Suspense fallback={null}>
            <SandboxBanner />
          </Suspense>
        )}
        {children}
      </main>
      <footer className={styles.footer}>© {new Date().getFullYear()} XG Marketplace</footer>
    </div>
  );
}
