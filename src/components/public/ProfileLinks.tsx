import { Fragment } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { useTranslation } from 'react-i18next';
import { sessionStore, logout } from '../../state/session';
import { profileItems } from './profileItems';
import layout from './layout.module.css';
import overlay from './overlay.module.css';

/**
 * The session-dependent links of the profile menu and the drawer. A lazy chunk: the session store
 * and the HTTP client behind it stay out of the home page's first script.
 */
export default function ProfileLinks({ onNavigate, showAdminLinks, variant }: { onNavigate: () => void; showAdminLinks?: boolean; variant: 'dropdown' | 'drawer' }) {
  const c = variant === 'dropdown'
    ? { list: layout.dropdown, note: layout.dropdownNote, heading: layout.dropdownHeading }
    : { list: undefined, note: overlay.drawerNote, heading: overlay.drawerHeading };
  const { t } = useTranslation('public');
  const { session } = useSnapshot(sessionStore);
  const [location, navigate] = useLocation();
  const items = profileItems(session, showAdminLinks);
  const here = window.location.pathname + window.location.search;
  return (
    <ul className={c.list} id={variant === 'dropdown' ? 'profile-menu' : undefined}>
      {session.isAuthenticated && session.email && (
        <li className={c.note}>{t('profile.signedInAs', { email: session.email })}</li>
      )}
      {items.map((item, i) => (
        <Fragment key={item.key}>
          {item.group === 'staff' && items[i - 1]?.group !== 'staff' && <li className={c.heading}>{t('profile.staff')}</li>}
          <li>
            <Link
              href={item.key === 'login' ? `${item.href}?redirect=${encodeURIComponent(here)}` : item.href}
              aria-current={location === item.href ? 'true' : undefined}
              onClick={onNavigate}
            >
              {t(`profile.${item.key}`)}
            </Link>
          </li>
        </Fragment>
      ))}
      {session.isAuthenticated && (
        <li>
          <button
            type="button"
            onClick={async () => {
              onNavigate();
              // A failure is the session store's to show (SignOutFailed): the user is still signed in.
              await logout().catch(() => undefined);
              navigate('/');
            }}
          >
            {t('profile.logout')}
          </button>
        </li>
      )}
    </ul>
  );
}
