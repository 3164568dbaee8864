import { lazy, Suspense, useRef, type MouseEvent } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { routes } from '../../app/routes';
import { LanguageLinks } from './LanguageSwitcher';
import { useHomeHref } from './homeHref';
import { useFocusTrap } from './useFocusTrap';
import { CloseIcon } from './CloseIcon';
import o from './overlay.module.css';
import l from './layout.module.css';

const ProfileLinks = lazy(() => import('./ProfileLinks'));

/** The seed's 100 ms between a link click in the drawer and the drawer closing. */
export const DRAWER_CLOSE_DELAY_MS = 100;

/** The small-screen slide-out menu: links, the profile entries and the languages. */
export default function Drawer({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('public');
  const home = useHomeHref();
  const panel = useRef<HTMLDivElement>(null);
  useFocusTrap(panel, true, onClose);
  const closing = useRef(false);
  const later = () => {
    if (closing.current) return;
    closing.current = true;
    setTimeout(onClose, DRAWER_CLOSE_DELAY_MS);
  };
  // Any link inside closes the drawer shortly after the click (the navigation happens at once).
  const onClick = (e: MouseEvent) => {
    if ((e.target as HTMLElement).closest('a')) later();
  };
  return (
    <div className={o.drawer}>
      <div className={o.drawerShade} onClick={onClose} />
      <div ref={panel} className={o.drawerPanel} role="dialog" aria-modal="true" aria-labelledby="drawer-title" onClick={onClick}>
        <div className={o.drawerHead}>
          <h2 id="drawer-title">{t('nav.drawerTitle')}</h2>
          <button type="button" className={l.iconButton} aria-label={t('nav.closeMenu')} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <nav aria-label={t('nav.label')}>
          <ul>
            <li><Link href={home}>{t('footer.home')}</Link></li>
            <li><Link href={routes.listingsUs}>{t('nav.browse')}</Link></li>
            <li><Link href={routes.createAds}>{t('nav.postAd')}</Link></li>
          </ul>
        </nav>
        <div className={o.drawerSection}>
          <h3>{t('nav.profile')}</h3>
          <Suspense fallback={null}>
            <ProfileLinks variant="drawer" onNavigate={later} />
          </Suspense>
        </div>
        <div className={o.drawerSection}>
          <h3>{t('nav.language')}</h3>
          <LanguageLinks />
        </div>
      </div>
    </div>
  );
}
