import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { LOCALES, splitLocale, switchLocalePath, type Locale } from '../../app/locale';
import { useDropdown } from './useDropdown';
import s from './layout.module.css';

export const FLAGS: Record<Locale, string> = { en: '/flags/us.svg', es: '/flags/co.svg', pt: '/flags/br.svg' };

/** The same page in another language: en (US flag), es (CO flag), pt (BR flag); /faq ↔ /es/faq ↔ /pt/faq. */
export function languageHref(to: Locale): string {
  const { pathname, search, hash } = window.location;
  return switchLocalePath(pathname + search + hash, to);
}

/** Links to the current page in each language (used by the dropdown and the drawer). */
export function LanguageLinks({ onPick, className }: { onPick?: () => void; className?: string }) {
  const { t } = useTranslation('public');
  const [, navigate] = useLocation();
  const current = splitLocale(window.location.pathname).locale;
  return (
    <ul className={className}>
      {LOCALES.map((l) => (
        <li key={l}>
          <a
            href={languageHref(l)}
            hrefLang={l}
            lang={l}
            aria-current={l === current ? 'true' : undefined}
            onClick={(e) => {
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              onPick?.();
              navigate(`~${languageHref(l)}`); // '~': outside the current locale's base
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
  useLocation(); // re-render on navigation: the links point at the current page
  const current = splitLocale(window.location.pathname).locale;
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
