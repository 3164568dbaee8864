import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from 'msw';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appTestSetup, appTestTeardown } from '../test/app';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { App } from './App';
import { SESSION_RECHECK_MS, sessionStore } from '../state/session';
import { GUEST, type Session } from '../api/session';

const ann: Session = { isAuthenticated: true, id: 'u-ann', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };

describe('App: the session of a tab left open', () => {
  beforeEach(appTestSetup);
  afterEach(() => {
    delete (document as unknown as { visibilityState?: string }).visibilityState;
    vi.useRealTimers();
    appTestTeardown();
  });

  // A tab left open on a public page (no socket there) while its user signed out in another tab,
  // or everywhere by a password change: once looked at again it no longer says "Signed in as A"
  // to the next person at it, with A's dashboard links.
  it('a tab shown again after its user signed out elsewhere no longer shows them signed in', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let session: Session = ann;
    server.use(
      http.get('/api/session', () => apiJson('GET /api/session', session)),
      http.get('/api/home', () => new Response(null, { status: 503 })),
    );
    window.history.replaceState(null, '', '/faq');
    const user = userEvent.setup();
    render(<App />);
    await waitFor(() => expect(sessionStore.session.id).toBe('u-ann'));
    await user.click(await screen.findByRole('button', { name: 'Profile' }, { timeout: 5000 }));
    await screen.findByText('Signed in as ann@example.com', {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Profile' })); // closed again
    session = GUEST; // another tab signs out: the cookie is gone for every tab of this browser
    vi.setSystemTime(Date.now() + SESSION_RECHECK_MS); // a while later, the tab is looked at again
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => expect(sessionStore.session.isAuthenticated).toBe(false));
    await user.click(screen.getByRole('button', { name: 'Profile' }));
    await waitFor(() => expect(document.getElementById('profile-menu')).not.toBeNull());
    expect(screen.queryByText('Signed in as ann@example.com')).toBeNull();
  });
});
