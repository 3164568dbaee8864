import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { createInstance, type BackendModule } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { renderAt } from '../test/render';
import { localeResources } from '../test/i18n';
import { sessionStore } from '../state/session';
import { DashboardLayout } from './DashboardLayout';

// Keyboard and screen-reader use of the dashboard shell: the skip link, the drawer's focus, and
// the words of its dialogs loaded with it.

class QuietWebSocket {
  readyState = 0;
  onopen: (() => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  send() {}
  close() {
    this.readyState = 3;
  }
}

function signIn() {
  sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
  sessionStore.loaded = true;
}

function setSmallScreen(small: boolean) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({ matches: small, media: query, addEventListener() {}, removeEventListener() {} }),
  });
}

describe('DashboardLayout accessibility', () => {
  beforeEach(() => {
    vi.stubGlobal('WebSocket', QuietWebSocket);
    signIn();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (window as { matchMedia?: unknown }).matchMedia;
  });

  it("a staff page's own heading is its first: the menu's Admin and Master groups are lists named by their labels, not headings before it", () => {
    sessionStore.session = { isAuthenticated: true, id: 'm1', email: 'boss@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'MASTER_USER'] };
    renderAt(
      <DashboardLayout>
        <h1>Users</h1>
      </DashboardLayout>,
      '/admin/dashboard/users',
    );
    // Headings in document order, as a screen reader's heading list reads them.
    expect(screen.getAllByRole('heading').map((h) => [h.tagName, h.textContent])).toEqual([['H1', 'Users']]);
    const nav = screen.getByRole('navigation', { name: 'Dashboard navigation' });
    expect(within(within(nav).getByRole('list', { name: 'Admin' })).getAllByRole('link').length).toBeGreaterThan(0);
    expect(within(within(nav).getByRole('list', { name: 'Master' })).getAllByRole('link').length).toBeGreaterThan(0);
  });

  it('the first Tab stop is a "Skip to content" link to the main region, which can take focus', async () => {
    const user = userEvent.setup();
    renderAt(
      <DashboardLayout>
        <h1>My wallet</h1>
      </DashboardLayout>,
      '/admin/dashboard/my-wallet',
    );
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(document.activeElement).toBe(skip);
    expect(skip.getAttribute('href')).toBe('#main');
    const main = screen.getByRole('main');
    expect(main.id).toBe('main');
    expect(main.getAttribute('tabindex')).toBe('-1'); // the link's target takes focus (not in the Tab order)
  });

  it('on a small screen the open drawer takes focus, keeps Tab inside, and Escape gives focus back to the menu button', async () => {
    setSmallScreen(true);
    const user = userEvent.setup();
    renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard');
    const toggle = screen.getByRole('button', { name: 'Collapse or expand the sidebar' });
    const nav = screen.getByRole('navigation', { name: 'Dashboard navigation' });
    const links = within(nav).getAllByRole('link');

    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(links[0]);

    links[links.length - 1].focus();
    await user.tab();
    expect(document.activeElement).toBe(links[0]); // from the last link back to the first, not into the page behind
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(links[links.length - 1]);

    await user.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('on a small screen, following a link of the drawer closes it and puts focus on the new page, not on the hidden link', async () => {
    setSmallScreen(true);
    const user = userEvent.setup();
    renderAt(<DashboardLayout>x</DashboardLayout>, '/admin/dashboard');
    const toggle = screen.getByRole('button', { name: 'Collapse or expand the sidebar' });
    await user.click(toggle);
    const nav = screen.getByRole('navigation', { name: 'Dashboard navigation' });
    await user.click(within(nav).getAllByRole('link')[1]);
    await waitFor(() => expect(toggle.getAttribute('aria-expanded')).toBe('false'));
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('loads the words of the confirmation dialog with the shell, so opening one never suspends the page', async () => {
    // The app's own way of loading translations: each namespace on first use, with Suspense.
    const resources = localeResources();
    const backend: BackendModule = {
      type: 'backend',
      init() {},
      read(lng, ns, callback) {
        setTimeout(() => callback(null, (resources[lng]?.[ns] ?? {}) as never), 0);
      },
    };
    const i18n = createInstance();
    await i18n
      .use(backend)
      .use(initReactI18next)
      .init({
        lng: 'en',
        fallbackLng: 'en',
        ns: ['common', 'validation'],
        defaultNS: 'common',
        interpolation: { escapeValue: false },
        react: { useSuspense: true },
      });
    const mem = memoryLocation({ path: '/admin/dashboard/admin/reports' });
    render(
      <I18nextProvider i18n={i18n}>
        <Router hook={mem.hook}>
          <Suspense fallback={<p>loading</p>}>
            <DashboardLayout>
              <h1>Reports</h1>
            </DashboardLayout>
          </Suspense>
        </Router>
      </I18nextProvider>,
    );
    await screen.findByRole('heading', { name: 'Reports' });
    await waitFor(() => expect(screen.queryByText('loading')).toBeNull());
    // ConfirmDialog's namespace: ready before any page opens a dialog.
    expect(i18n.hasLoadedNamespace('market')).toBe(true);
  });
});
