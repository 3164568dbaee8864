import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useDropdown } from './useDropdown';
import { PersonIcon } from './icons';
import s from './layout.module.css';

const ProfileLinks = lazy(() => import('./ProfileLinks'));

/** The person-icon dropdown (seed §2). Its entries depend on the session, so they load on demand. */
export function ProfileMenu({ showAdminLinks }: { showAdminLinks?: boolean }) {
  const { t } = useTranslation('public');
  const { open, setOpen, wrap, button, toggle } = useDropdown();
  return (
    <div className={s.dropdownWrap} ref={wrap}>
      <button
        ref={button}
        type="button"
        className={s.iconButton}
        aria-label={t('nav.profile')}
        aria-expanded={open}
        aria-controls={open ? 'profile-menu' : undefined}
        onClick={toggle}
        onMouseEnter={() => void import('./ProfileLinks')}
      >
        <PersonIcon />
      </button>
      {open && (
        <Suspense fallback={<div className={s.dropdown} aria-busy="true">…</div>}>
          <ProfileLinks variant="dropdown" showAdminLinks={showAdminLinks} onNavigate={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
