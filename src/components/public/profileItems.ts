import type { Role } from '../../api/session';
import { routes } from '../../app/routes';

export interface ProfileItem {
  key: string;
  href: string;
  group: 'account' | 'staff';
}

/**
 * Admin links in the profile menu can be hidden by a flag (seed §2): set VITE_HIDE_ADMIN_LINKS=1
 * at build time, e.g. for a public kiosk build. Staff still reach their screens from the dashboard.
 */
export const SHOW_ADMIN_LINKS = import.meta.env.VITE_HIDE_ADMIN_LINKS !== '1';

/**
 * The profile menu's entries (seed §2, PRODUCT §2): signed in — dashboard, profile, wallet, then
 * cart and my ads for providers, staff links for admins and masters; signed out — register, login.
 * `key` is the label's key in the 'public' namespace (profile.*).
 */
export function profileItems(session: { isAuthenticated: boolean; userRoles: readonly Role[] }, showAdminLinks = SHOW_ADMIN_LINKS): ProfileItem[] {
  if (!session.isAuthenticated) {
    return [
      { key: 'register', href: routes.register, group: 'account' },
      { key: 'login', href: routes.login, group: 'account' },
    ];
  }
  const has = (r: Role) => session.userRoles.includes(r);
  const items: ProfileItem[] = [
    { key: 'dashboard', href: routes.dashboard, group: 'account' },
    { key: 'profile', href: routes.myProfile, group: 'account' },
    { key: 'wallet', href: routes.myWallet, group: 'account' },
  ];
  if (has('PROVIDER_USER')) {
    items.push({ key: 'cart', href: routes.myCart, group: 'account' }, { key: 'myAds', href: routes.myAds, group: 'account' });
  }
  if (showAdminLinks && (has('ADMIN_USER') || has('MASTER_USER'))) {
    items.push(
      { key: 'pendingAds', href: routes.adminPendingAds, group: 'staff' },
      { key: 'approvedAds', href: routes.adminApprovedAds, group: 'staff' },
      { key: 'reports', href: routes.adminReports, group: 'staff' },
    );
  }
  if (showAdminLinks && has('MASTER_USER')) {
    items.push({ key: 'pendingUsers', href: routes.masterPendingUsers, group: 'staff' }, { key: 'approvedUsers', href: routes.masterApprovedUsers, group: 'staff' });
  }
  return items;
}
