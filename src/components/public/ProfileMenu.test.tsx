import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { sessionStore } from '../../state/session';
import type { Role } from '../../api/session';
import { ProfileMenu } from './ProfileMenu';
import { profileItems } from './profileItems';

const signedIn = (...roles: Role[]) => ({ isAuthenticated: true, userRoles: roles });
const keys = (roles: Role[] | null, show = true) => profileItems(roles ? signedIn(...roles) : { isAuthenticated: false, userRoles: ['GUEST_USER'] }, show).map((i) => i.key);

describe('profile menu entries', () => {
  it('follows the roles: guests register or sign in, providers get cart and my ads, staff get their links', () => {
    expect(keys(null)).toEqual(['register', 'login']);
    expect(keys(['PROVIDER_USER'])).toEqual(['dashboard', 'profile', 'wallet', 'cart', 'myAds']);
    expect(keys(['PROVIDER_USER', 'ADMIN_USER'])).toEqual(['dashboard', 'profile', 'wallet', 'cart', 'myAds', 'pendingAds', 'approvedAds', 'reports']);
    expect(keys(['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'])).toEqual([
      'dashboard', 'profile', 'wallet', 'cart', 'myAds', 'pendingAds', 'approvedAds', 'reports', 'pendingUsers', 'approvedUsers',
    ]);
    // A signed-in account without the provider role sees no cart or my ads.
    expect(keys(['ADMIN_USER'])).toEqual(['dashboard', 'profile', 'wallet', 'pendingAds', 'approvedAds', 'reports']);
  });

  it('hides the admin links behind the flag', () => {
    expect(keys(['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'], false)).toEqual(['dashboard', 'profile', 'wallet', 'cart', 'myAds']);
  });
});

describe('ProfileMenu', () => {
  it('opens from the "Profile" button and shows register and sign-in (with a way back) to guests', async () => {
    window.history.replaceState(null, '', '/faq');
    const user = userEvent.setup();
    renderAt(<ProfileMenu />, '/faq');
    const button = screen.getByRole('button', { name: 'Profile' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const login = await screen.findByRole('link', { name: 'Sign in' });
    expect(login.getAttribute('href')).toBe('/auth/login?redirect=%2Ffaq');
    expect(screen.getByRole('link', { name: 'Register' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('shows an admin the account, provider and staff links, and signs out', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    sessionStore.loaded = true;
    let loggedOut = false;
    server.use(http.post('/api/logout', () => {
      loggedOut = true;
      return apiJson('POST /api/logout', { isAuthenticated: false, userRoles: ['GUEST_USER'] });
    }));
    const user = userEvent.setup();
    const r = renderAt(<ProfileMenu />, '/faq');
    await user.click(screen.getByRole('button', { name: 'Profile' }));
    const list = (await screen.findByRole('link', { name: 'My dashboard' })).closest('ul')!;
    const names = within(list).getAllByRole('link').map((a) => a.textContent);
    expect(names).toEqual(['My dashboard', 'My profile', 'My wallet', 'My cart', 'My ads', 'Pending ads', 'Approved ads', 'Reports']);
    expect(within(list).getByText('Signed in as ann@example.com')).toBeTruthy();
    expect(within(list).queryByRole('link', { name: 'Pending users' })).toBeNull();
    await user.click(within(list).getByRole('button', { name: 'Sign out' }));
    expect(loggedOut).toBe(true);
    expect(sessionStore.session.isAuthenticated).toBe(false);
    expect(r.currentPath()).toBe('/');
  });
});
