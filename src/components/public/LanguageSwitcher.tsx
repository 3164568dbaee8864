import { useTranslation } from 'react-i18next';
import { useLocation, useRouter, useSearch } from 'wouter';
import { LOCALES, splitLocale, switchLocalePath, type Locale } from '../../app/locale';
import { useDropdown } from './useDropdown';
import s from './layout.module.css';

export const FLAGS: Record<Locale, string> = { en: '/flags/us.svg', es: '/flags/co.svg', pt: '/flags/br.svg' };

/**
 * The current page (full path, with its query) from the router, not from window.location: the
 * server renders these links too, and the browser's first render must match.
 */
function useCurrentPage(): { path: string; locale: Locale } {
  const { base } = useRouter();
  const [rest] = useLocation();
  const search = useSearch();
  const path = (base && rest === '/' ? base : base + rest) + (search ? `?${search}` : '');
  return { path, locale: splitLocale(path).locale };
}

/** Links to the current page in each language (used by the dropdown and the drawer); the #hash is kept on click. */
export function LanguageLinks({ onPick, className }: { onPick?: () => void; className?: string }) {
  const { t } = useTranslation('public');
  const [, navigate] = useLocation();
  const { path, locale: current } = useCurrentPage();
  return (
    <ul className={className}>
      {LOCALES.map((l) => (
        <li key={l}>
          <a
            href={switchLocalePath(path, l)}
            hrefLang={l}
            lang={l}
            aria-current={l === current ? 'true' : undefined}
            onClick={(e) => {
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              onPick?.();
              navigate(`~${switchLocalePath(path + window.location.hash, l)}`); // '~': outside the current locale's base
            }}
          >
            <img className={s.flag} src={FLAGS[l]} alt="" width={22} height={15} />
            {t(`languages.${l}`)}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function LanguageSwitcher() {
  const { t } = useTranslation('public');
  const { open, setOpen, wrap, button, toggle } = useDropdown();
  const { locale: current } = useCurrentPage();
  return (
    <div className={s.dropdownWrap} ref={wrap}>
      <button
        ref={button}
        type="button"
        className={s.iconButton}
        aria-label={t('nav.language')}
        aria-expanded={open}
        aria-controls={open ? 'language-menu' : undefined}
        onClick={toggle}
      >
        <img className={s.flag} src={FLAGS[current]} alt="" width={22} height={15} />
      </button>
      {open && (
        <div id="language-menu">
          <LanguageLinks className={s.dropdown} onPick={() => setOpen(false)} />
        </div>
      )}
    </div>
  );
}
