import type { RefObject } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { routes } from '../../app/routes';
import { ProfileMenu } from './ProfileMenu';
import { useHomeHref } from './homeHref';
import { LanguageSwitcher } from './LanguageSwitcher';
import { MenuIcon, SearchIcon } from './icons';
import s from './layout.module.css';

interface Props {
  onSearch: () => void;
  onMenu: () => void;
  searchButton: RefObject<HTMLButtonElement | null>;
  menuButton: RefObject<HTMLButtonElement | null>;
  drawerOpen: boolean;
  searchOpen: boolean;
}

/**
 * Logo, post-ad link, search, profile menu and language switcher. Below 992 px the links, profile
 * menu and languages move into the drawer opened by "Menu"; search stays in the bar.
 */
export function TopBar({ onSearch, onMenu, searchButton, menuButton, drawerOpen, searchOpen }: Props) {
  const { t } = useTranslation('public');
  const home = useHomeHref();
  return (
    <header className={s.topbar}>
      <div className={`container ${s.bar}`}>
        <button ref={menuButton} type="button" className={`${s.iconButton} ${s.menuButton}`} aria-label={t('nav.menu')} aria-expanded={drawerOpen} onClick={onMenu}>
          <MenuIcon />
        </button>
        <Link href={home} className={s.brand}>
          <span className={s.logo}>XG</span>
          <span>Marketplace</span>
        </Link>
        <nav aria-label={t('nav.label')} className={s.wide}>
          <div className={s.navlinks}>
            <Link href={routes.listingsUs} className={s.navlink}>{t('nav.browse')}</Link>
            <Link href={routes.createAds} className={s.navlink}>{t('nav.postAd')}</Link>
          </div>
        </nav>
        <button ref={searchButton} type="button" className={s.iconButton} aria-label={t('nav.search')} aria-expanded={searchOpen} onClick={onSearch}>
          <SearchIcon />
        </button>
        <div className={s.wide}>
          <LanguageSwitcher />
          <ProfileMenu />
        </div>
      </div>
    </header>
  );
}
