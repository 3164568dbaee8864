import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { routes } from '../app/routes';

// Minimal public shell (header, nav, main, footer); the public-site work fills it out.
export function PublicLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <header>
        <nav aria-label={t('mainNav')} className="container" style={{ display: 'flex', gap: 16, padding: 12 }}>
          <Link href={routes.home}>XG</Link>
          <Link href={routes.createAds}>{t('postAd')}</Link>
          <Link href={routes.login}>{t('login')}</Link>
          <Link href={routes.register}>{t('register')}</Link>
        </nav>
      </header>
      <main id="main" className="container">{children}</main>
      <footer className="container">
        <p>© {new Date().getFullYear()} XG Marketplace</p>
      </footer>
    </>
  );
}
