import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { Router } from 'wouter';
import { renderAt } from '../test/render';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { sessionStore } from '../state/session';
import { socketStore } from '../state/socket';
import type { Role } from '../api/session';
import type { ServerEventData } from '../api/socket';
import { dateTimeLabel } from './market/labels';
import { DashboardLayout } from './DashboardLayout';

class QuietWebSocket {
  static instances: QuietWebSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  closed = false;
  url: string;
  constructor(url: string) {
    this.url = url;
    QuietWebSocket.instances.push(this);
  }
  send() {}
  close() {
    this.closed = true;
    this.readyState = 3;
  }
}

function signIn(...roles: Role[]) {
  sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', ...roles] };
  sessionStore.loaded = true;
}

function setSmallScreen(small: boolean) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({ matches: small, media: query, addEventListener() {}, removeEventListener() {} }),
  });
}

describe('DashboardLayout', () => {
  beforeEach(() => {
    QuietWebSocket.instances = [];
    vi.stubGlobal('WebSocket', QuietWebSocket);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (window as { matchMedia?: unknown }).matchMedia;
  });

  it('has the landmarks and marks the current page', () => {
    signIn();
    renderAt(
      <DashboardLayout>
        <h1>Profile page</h1>
      </DashboardLayout>,
      '/admin/dashboard/my-profile',
    );
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main').textContent).toBe('Profile page');
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Dashboard navigation' });
    expect(within(nav).getByRole('link', { name: 'My profile' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'My dashboard' }).getAttribute('aria-current')).toBeNull();
  });

  it('the brand link goes to the home page in the page’s language', () => {
    signIn();
    renderAt(
      <Router base="/es">
        <DashboardLayout>x</DashboardLayout>
      </Router>,
      '/es/admin/dashboard/my-profile',
    );
    expect(screen.getByRole('link', { name: 'XG' }).getAttribute('href')).toBe('/es/');
  });

  it('offers the languages in the header, each link the same dashboard page in that language', async () => {
    signIn();
    const user = userEvent.setup();
    const view = renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard/my-wallet?page=2');
    const languages = within(screen.getByRole('banner')).getByRole('navigation', { name: 'Language' });
    await user.click(within(languages).getByRole('button', { name: 'Language' }));
    const english = within(languages).getByRole('link', { name: 'English' });
    expect(english.getAttribute('aria-current')).toBe('true');
    expect(english.getAttribute('href')).toBe('/admin/dashboard/my-wallet?page=2');
    expect(within(languages).getByRole('link', { name: 'Português' }).getAttribute('href')).toBe('/pt/admin/dashboard/my-wallet?page=2');
    const spanish = within(languages).getByRole('link', { name: 'Español' });
    expect(spanish.getAttribute('aria-current')).toBeNull();
    expect(spanish.getAttribute('href')).toBe('/es/admin/dashboard/my-wallet?page=2');
    await user.click(spanish);
    expect(view.currentPath()).toBe('/es/admin/dashboard/my-wallet?page=2');
  });

  it('in a Spanish dashboard, marks Spanish as current and links back to the English page', async () => {
    signIn();
    await i18n.changeLanguage('es');
    const user = userEvent.setup();
    renderAt(
      <Router base="/es">
        <DashboardLayout>x</DashboardLayout>
      </Router>,
      '/es/admin/dashboard/admin/audit-log',
    );
    const languages = within(screen.getByRole('banner')).getByRole('navigation', { name: 'Idioma' });
    await user.click(within(languages).getByRole('button', { name: 'Idioma' }));
    expect(within(languages).getByRole('link', { name: 'Español' }).getAttribute('aria-current')).toBe('true');
    expect(within(languages).getByRole('link', { name: 'English' }).getAttribute('href')).toBe('/admin/dashboard/admin/audit-log');
    expect(within(languages).getByRole('link', { name: 'Português' }).getAttribute('href')).toBe('/pt/admin/dashboard/admin/audit-log');
  });

  it('shows admin links to admins and master links to masters only', () => {
    signIn();
    const a = renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard');
    expect(screen.queryByRole('link', { name: 'Audit log' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Pending users' })).toBeNull();
    a.unmount();

    signIn('ADMIN_USER');
    const b = renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard');
    expect(screen.getByRole('link', { name: 'Audit log' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Pending users' })).toBeNull();
    b.unmount();

    signIn('MASTER_USER');
    renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard');
    expect(screen.getByRole('link', { name: 'Audit log' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Pending users' }).getAttribute('href')).toBe('/admin/dashboard/master/pending-users');
  });

  it('collapses the sidebar to mini on a wide screen', async () => {
    signIn();
    const user = userEvent.setup();
    const view = renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard');
    const shell = view.container.firstElementChild!;
    const toggle = screen.getByRole('button', { name: 'Collapse or expand the sidebar' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.click(toggle);
    expect(shell.getAttribute('data-mini')).toBe('true');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('gives every sidebar link a real icon, its name kept for screen readers and shown as a tooltip in the mini sidebar', async () => {
    signIn('MASTER_USER');
    server.use(http.get('/api/payment-provider', () => apiJson('GET /api/payment-provider', { mode: 'btcpay' }))); // staff see the sandbox banner's question
    const user = userEvent.setup();
    const view = renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard/my-ads');
    await user.click(screen.getByRole('button', { name: 'Collapse or expand the sidebar' }));
    expect(view.container.firstElementChild!.getAttribute('data-mini')).toBe('true');

    const links = within(screen.getByRole('navigation', { name: 'Dashboard navigation' })).getAllByRole('link');
    expect(links).toHaveLength(22);
    const icons = links.map((a) => {
      const svg = a.querySelector('svg');
      expect(svg?.getAttribute('aria-hidden'), a.textContent!).toBe('true');
      expect(svg!.querySelector('path, rect, circle'), a.textContent!).not.toBeNull();
      return svg!.getAttribute('data-icon');
    });
    expect(new Set(icons).size).toBe(links.length); // one icon per page, no letters
    // The name is the link's text (its tooltip in the mini sidebar), not a title attribute or a first letter.
    const myAds = screen.getByRole('link', { name: 'My ads' });
    expect(myAds.getAttribute('aria-current')).toBe('page');
    expect(myAds.textContent).toBe('My ads');
    expect(myAds.querySelector('span')!.textContent).toBe('My ads');
    expect(screen.getByRole('link', { name: 'Approved users' }).querySelector('svg')!.getAttribute('data-icon')).toBe('users');
  });

  it('opens the sidebar as a drawer on a small screen and closes it 100 ms after a link click', async () => {
    setSmallScreen(true);
    signIn();
    const user = userEvent.setup();
    const view = renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard');
    const shell = view.container.firstElementChild!;
    const toggle = screen.getByRole('button', { name: 'Collapse or expand the sidebar' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(shell.getAttribute('data-drawer')).toBe('closed');
    await user.click(toggle);
    expect(shell.getAttribute('data-drawer')).toBe('open');
    expect(shell.getAttribute('data-mini')).toBe('false');

    await user.click(screen.getByRole('link', { name: 'My wallet' }));
    expect(view.currentPath()).toBe('/admin/dashboard/my-wallet');
    expect(shell.getAttribute('data-drawer')).toBe('open'); // not at once: the seed's 100 ms delay
    await waitFor(() => expect(shell.getAttribute('data-drawer')).toBe('closed'));

    await user.click(toggle);
    await user.keyboard('{Escape}');
    expect(shell.getAttribute('data-drawer')).toBe('closed');
  });

  it('starts the socket for a signed-in user and stops it on unmount', async () => {
    signIn();
    const view = renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard');
    expect(QuietWebSocket.instances).toHaveLength(1);
    expect(QuietWebSocket.instances[0].url).toBe('ws://localhost:3000/api/ws');
    view.unmount();
    expect(QuietWebSocket.instances[0].closed).toBe(true);
    expect(socketStore.connected).toBe(false);
  });

  describe('when live updates are down', () => {
    afterEach(() => vi.useRealTimers());
    const latest = () => QuietWebSocket.instances[QuietWebSocket.instances.length - 1];
    /** The newest socket opens, or closes without a handshake (the network or the server gone). */
    const open = () =>
      act(async () => {
        latest().readyState = 1;
        latest().onopen?.();
      });
    const drop = () =>
      act(async () => {
        latest().readyState = 3;
        latest().onclose?.({ code: 1006 });
      });
    const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

    it('says so once the socket has been down a few seconds, not at the first connect nor for a quick reconnect, and not once back', async () => {
      vi.useFakeTimers();
      signIn();
      renderAt(
        <DashboardLayout>
          <h1>Panel</h1>
        </DashboardLayout>,
        '/admin/dashboard',
      );
      await wait(10_000); // a slow first connect: nothing was live yet
      expect(screen.queryByRole('status')).toBeNull();
      await open();

      // Dropped, and back at the first retry (1 s): no notice.
      await drop();
      await wait(1000);
      expect(QuietWebSocket.instances).toHaveLength(2);
      await open();
      await wait(10_000);
      expect(screen.queryByRole('status')).toBeNull();

      // Dropped, and the retries fail (1 s, then 2 s later): said after 5 s, politely, in the page.
      await drop();
      await wait(1000);
      await drop();
      await wait(2000);
      expect(QuietWebSocket.instances).toHaveLength(4);
      await wait(1900);
      expect(screen.queryByRole('status')).toBeNull();
      await wait(200);
      const notice = within(screen.getByRole('main')).getByRole('status');
      expect(notice.textContent).toBe('Live updates are paused: reconnecting…');
      expect(screen.queryByRole('alert')).toBeNull();

      // Connected again: gone.
      await open();
      expect(screen.queryByRole('status')).toBeNull();
    });

    it('says it in the page’s language', async () => {
      vi.useFakeTimers();
      signIn();
      await i18n.changeLanguage('pt');
      renderAt(
        <Router base="/pt">
          <DashboardLayout>x</DashboardLayout>
        </Router>,
        '/pt/admin/dashboard',
      );
      await open();
      await drop();
      await wait(6000); // the retry at 1 s never opens
      expect(screen.getByRole('status').textContent).toBe('As atualizações ao vivo estão pausadas: reconectando…');
    });
  });

  describe('a staff announcement (publicMessage)', () => {
    /** What the server sends on the layout's socket (valtio tells React after a microtask: awaited). */
    const announce = (data: ServerEventData<'publicMessage'>) =>
      act(async () => QuietWebSocket.instances[0].onmessage?.({ data: JSON.stringify({ event: 'publicMessage', data }) }));
    const at = '2026-01-15T12:00:00.000Z';

    it('shows in the page’s language with its time, falls back to English, and is gone once dismissed until the next one', async () => {
      signIn();
      await i18n.changeLanguage('es');
      const user = userEvent.setup();
      renderAt(
        <Router base="/es">
          <DashboardLayout>
            <h1>Panel</h1>
          </DashboardLayout>
        </Router>,
        '/es/admin/dashboard',
      );
      expect(screen.queryByRole('status')).toBeNull();

      await announce({ text: { en: 'Maintenance tonight at 02:00 UTC.', es: 'Mantenimiento esta noche a las 02:00 UTC.' }, at });
      const banner = screen.getByRole('status');
      expect(within(screen.getByRole('main')).getByRole('status')).toBe(banner);
      expect(banner.textContent).toContain('Aviso');
      expect(banner.textContent).toContain('Mantenimiento esta noche a las 02:00 UTC.');
      expect(banner.textContent).not.toContain('Maintenance');
      const time = banner.querySelector('time')!;
      expect(time.getAttribute('datetime')).toBe(at);
      expect(time.textContent).toBe(dateTimeLabel(at, 'es'));

      // Replaced by one without Spanish: its English.
      await announce({ text: { en: 'Back online.', pt: 'De volta.' }, at: '2026-01-15T12:10:00.000Z' });
      expect(screen.getByRole('status').textContent).toContain('Back online.');
      expect(screen.getByRole('status').textContent).not.toContain('De volta.');

      await user.click(within(screen.getByRole('status')).getByRole('button', { name: 'Cerrar el aviso' }));
      expect(screen.queryByRole('status')).toBeNull();
      expect(socketStore.publicMessage).toBeNull();

      await announce({ text: { en: 'Done.' }, at: '2026-01-15T12:20:00.000Z' });
      expect(screen.getByRole('status').textContent).toContain('Done.');
    });

    it('shows English on an English page even when other languages came too', async () => {
      signIn();
      renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard');
      await announce({ text: { en: 'Maintenance tonight.', es: 'Mantenimiento esta noche.', pt: 'Manutenção hoje à noite.' }, at });
      const banner = screen.getByRole('status');
      expect(banner.textContent).toContain('Announcement');
      expect(banner.textContent).toContain('Maintenance tonight.');
      expect(within(banner).getByRole('button', { name: 'Dismiss the announcement' })).toBeTruthy();
    });
  });
});
