import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { appTestSetup, appTestTeardown } from '../test/app';
import { GUEST, type Session } from '../api/session';
import { App } from '../app/App';
import { renderAt } from '../test/render';
import SignOutFailed from './SignOutFailed';
import { loadSession, sessionStore } from '../state/session';
import { walletsStore } from '../state/wallets';

beforeEach(appTestSetup);
afterEach(appTestTeardown);

const ANN: Session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };

describe('signing out when the sign-out call does not reach the server', () => {
  // The session cookie is HttpOnly: only the server's answer to POST /api/logout ends it. When
  // that call fails (offline, 5xx), the tab still forgets the user's data and goes home, but the
  // user is told they are still signed in (above all on a shared computer) and can try again;
  // a retry that goes through signs them out and the notice goes away.
  it('tells the user the sign-out failed, and signs out on a retry', async () => {
    let signedIn = true;
    let logoutWorks = false;
    server.use(
      http.get('/api/session', () => apiJson('GET /api/session', signedIn ? ANN : GUEST)),
      http.post('/api/logout', () => {
        if (!logoutWorks) return HttpResponse.error(); // the network is down: the cookie stays valid
        signedIn = false;
        return apiJson('POST /api/logout', GUEST);
      }),
      http.get('/api/my-ads-overview', () =>
        apiJson('GET /api/my-ads-overview', { counts: { unpaid: 0, in_review: 0, approved: 0, rejected: 0, disabled: 0, expired: 0 }, online: 0, recent: [] }),
      ),
      http.get('/api/wallet-transactions', () => apiJson('GET /api/wallet-transactions', { transactions: [], total: 0, page: 1, pageSize: 5 })),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [] })),
      http.get('/api/home', () => HttpResponse.error()),
    );
    window.history.replaceState(null, '', '/admin/dashboard');
    const user = userEvent.setup();
    render(<App />);
    const signOut = await screen.findByRole('button', { name: 'Sign out' }, { timeout: 5000 });
    await user.click(signOut);
    // The page goes home, with the user's data forgotten, and says the user is still signed in ...
    await waitFor(() => expect(window.location.pathname).toBe('/'), { timeout: 5000 });
    const said = await screen.findByText(/you are still signed in/, {}, { timeout: 5000 });
    const notice = said.closest<HTMLElement>('[role="alert"]');
    expect(notice?.textContent).toContain('Signing out did not go through: you are still signed in on this browser.');
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(walletsStore.state.data).toBeNull();
    // ... which is true: the cookie still works (the next person at this browser gets Ann on a reload).
    expect((await loadSession()).isAuthenticated).toBe(true);

    logoutWorks = true;
    await user.click(within(notice!).getByRole('button', { name: 'Try signing out again' }));
    await waitFor(() => expect(screen.queryByText(/you are still signed in/)).toBeNull());
    expect(sessionStore.session.isAuthenticated).toBe(false);
    expect((await loadSession()).isAuthenticated).toBe(false);
  });

  // jsdom keeps focus on a disabled button (Chromium drops it to <body>): "kept" is focused and not `disabled`.
  it('keeps focus on "Try signing out again" while it runs, sends once, and keeps it there when it fails again', async () => {
    const state = { calls: 0, release: null as null | (() => void) };
    server.use(
      http.post('/api/logout', async () => {
        state.calls++;
        await new Promise<void>((resolve) => (state.release = resolve));
        return HttpResponse.error();
      }),
    );
    act(() => {
      sessionStore.signOutFailed = true;
    });
    const user = userEvent.setup();
    renderAt(<SignOutFailed />);
    const retry = await screen.findByRole<HTMLButtonElement>('button', { name: 'Try signing out again' });
    retry.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(state.release).not.toBeNull());
    expect(document.activeElement).toBe(retry);
    expect(retry.disabled).toBe(false);
    expect(retry.getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Enter}');
    await user.click(retry);
    expect(state.calls).toBe(1);

    state.release!();
    await waitFor(() => expect(retry.getAttribute('aria-disabled')).toBeNull());
    expect(screen.getByText(/you are still signed in/)).toBeTruthy();
    expect(document.activeElement).toBe(retry);
  });
});
