import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TopBar } from './public/TopBar';
import s from './public/layout.module.css';

// The overlays load on first use: they stay out of the home page's first script.
const SearchOverlay = lazy(() => import('./public/SearchOverlay'));
const Drawer = lazy(() => import('./public/Drawer'));
// Below the fold: it follows right after first paint.
const Footer = lazy(() => import('./public/Footer'));
// Staff only (it decides from the session, after first paint): "sandbox payments are on".
const SandboxBanner = lazy(() => import('./SandboxBanner'));
// Only after a sign-out that did not reach the server: "you are still signed in".
const SignOutFailed = lazy(() => import('./SignOutFailed'));

/** The public shell (seed §2): top bar, drawer, search overlay, background art and footer. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('public');
  const [search, setSearch] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const searchButton = useRef<HTMLButtonElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  return (
    <div className={s.page}>
      <div className={s.background} aria-hidden="true" />
      <a className={s.skip} href="#main">
        {t('skipToContent')}
      </a>
      <Suspense fallback={null}>
        <SandboxBanner />
      </Suspense>
      <Suspense fallback={null}>
        <SignOutFailed />
      </Suspense>
      <TopBar
        onSearch={() => setSearch(true)}
        onMenu={() => setDrawer(true)}
        searchButton={searchButton}
        menuButton={menuButton}
        searchOpen={search}
        drawerOpen={drawer}
      />
      <main id="main" className={`container ${s.main}`} tabIndex={-1}>
        {children}
      </main>
      <Suspense fallback={null}>
        <Footer />
      </Suspense>
      <Suspense fallback={null}>
        {search && <SearchOverlay onClose={() => setSearch(false)} />}
        {drawer && <Drawer onClose={() => setDrawer(false)} />}
      </Suspense>
    </div>
  );
}
