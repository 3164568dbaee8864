import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { routes } from '../../app/routes';
import { Badges } from './Badges';
import { useHomeHref } from './homeHref';
import s from './layout.module.css';

/** A build-time setting's value, or undefined when it is unset or blank. */
const setting = (value: string | undefined) => value?.trim() || undefined;

/**
 * The blog, its feed and the social profiles are the operator's own: each address is a build-time
 * setting (.env.example, README: configuration) and a link whose setting is unset is not shown, so
 * no page ships a link to a blog or an account that does not exist. Read when the footer renders,
 * not when this module loads (the tests set them); the build writes each value into the browser's
 * and the server renderer's code alike, so both render the same links.
 */
export function blogUrl(): string | undefined {
  return setting(import.meta.env.VITE_BLOG_URL);
}

export function socialLinks(): Array<{ key: string; href: string; icon: string }> {
  const all = [
    { key: 'x', href: setting(import.meta.env.VITE_SOCIAL_X_URL), icon: '/social/x.svg' },
    { key: 'reddit', href: setting(import.meta.env.VITE_SOCIAL_REDDIT_URL), icon: '/social/reddit.svg' },
    { key: 'telegram', href: setting(import.meta.env.VITE_SOCIAL_TELEGRAM_URL), icon: '/social/telegram.svg' },
    { key: 'rss', href: setting(import.meta.env.VITE_RSS_URL), icon: '/social/rss.svg' },
  ];
  return all.filter((l): l is { key: string; href: string; icon: string } => l.href !== undefined);
}

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
  const home = useHomeHref();
  const blog = blogUrl();
  const social = socialLinks();
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
                    <Link href={l.href === routes.home ? home : l.href}>{t(`footer.${l.key}`)}</Link>
                  </li>
                ))}
                {g.title === 'explore' && blog && (
                  <li>
                    <a href={blog} rel="noopener">{t('footer.blog')}</a>
                  </li>
                )}
              </ul>
            </div>
          ))}
          <div>
            {social.length > 0 && (
              <>
                <h2>{t('footer.follow')}</h2>
                <div className={s.social}>
                  {social.map((l) => (
                    <a key={l.key} href={l.href} target="_blank" rel="noopener noreferrer" aria-label={t(`footer.social.${l.key}`)}>
                      {/* Below the fold: fetched when scrolled near, not with the page's first images. */}
                      <img src={l.icon} alt="" width={20} height={20} loading="lazy" decoding="async" />
                    </a>
                  ))}
                </div>
              </>
            )}
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
