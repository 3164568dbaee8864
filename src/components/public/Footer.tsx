import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { BLOG_URL, routes } from '../../app/routes';
import { Badges } from './Badges';
import s from './layout.module.css';

// Social profiles: operators change these for their own accounts.
export const SOCIAL_LINKS = [
  { key: 'x', href: 'https://x.com/xgmarketplace', icon: '/social/x.svg' },
  { key: 'reddit', href: 'https://www.reddit.com/r/xgmarketplace', icon: '/social/reddit.svg' },
  { key: 'telegram', href: 'https://t.me/xgmarketplace', icon: '/social/telegram.svg' },
  { key: 'rss', href: `${BLOG_URL}/feed.xml`, icon: '/social/rss.svg' },
] as const;

/** Every public page, grouped, with the footer keys in the 'public' namespace. */
export const FOOTER_GROUPS: ReadonlyArray<{ title: string; links: ReadonlyArray<{ key: string; href: string }> }> = [
  { title: 'explore', links: [{ key: 'home', href: routes.home }, { key: 'listings', href: routes.listingsUs }, { key: 'postAd', href: routes.createAds }] },
  {
    title: 'help',
    links: [
      { key: 'about', href: routes.aboutUs }, { key: 'faq', href: routes.faq }, { key: 'contact', href: routes.contactUs },
      { key: 'reportCrime', href: routes.reportCrime }, { key: 'lawEnforcement', href: routes.lawEnforcement },
      { key: 'transparency', href: routes.transparency },
    ],
  },
  { title: 'legal', links: [{ key: 'terms', href: routes.terms }, { key: 'agreement', href: routes.agreement }, { key: 'login', href: routes.login }, { key: 'register', href: routes.register }] },
];

export default function Footer() {
  const { t } = useTranslation('public');
  return (
    <footer className={s.footer}>
      <div className="container">
        <nav aria-label={t('footer.label')} className={s.footerGrid}>
          {FOOTER_GROUPS.map((g) => (
            <div key={g.title}>
              <h2>{t(`footer.${g.title}`)}</h2>
              <ul>
                {g.links.map((l) => (
                  <li key={l.key}>
                    <Link href={l.href}>{t(`footer.${l.key}`)}</Link>
                  </li>
                ))}
                {g.title === 'explore' && (
                  <li>
                    <a href={BLOG_URL} rel="noopener">{t('footer.blog')}</a>
                  </li>
                )}
              </ul>
            </div>
          ))}
          <div>
            <h2>{t('footer.follow')}</h2>
            <div className={s.social}>
              {SOCIAL_LINKS.map((l) => (
                <a key={l.key} href={l.href} target="_blank" rel="noopener noreferrer" aria-label={t(`footer.social.${l.key}`)}>
                  {/* Below the fold: fetched when scrolled near, not with the page's first images. */}
                  <img src={l.icon} alt="" width={20} height={20} loading="lazy" decoding="async" />
                </a>
              ))}
            </div>
            <Badges />
          </div>
        </nav>
        <div className={s.footerBottom}>
          {/* A page rendered (and cached) on the server last year may meet this year's browser. */}
          <p suppressHydrationWarning>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
          <p>{t('footer.adultsNote')}</p>
        </div>
      </div>
    </footer>
  );
}
