import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, delay } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import type { Session } from '../../api/session';
import { renderAt } from '../../test/render';
import { sessionStore } from '../../state/session';
import Login from './Login';

const session: Session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };

function fill(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  return (async () => {
    if (email) await user.type(screen.getByLabelText('E-mail'), email);
    if (password) await user.type(screen.getByLabelText('Password'), password);
  })();
}

describe('Login page', () => {
  it('labels its inputs and sets autocomplete for password managers', () => {
    renderAt(<Login />, '/auth/login');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(screen.getByLabelText('E-mail').getAttribute('autocomplete')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('autocomplete')).toBe('current-password');
  });

  it('checks the fields before sending anything (msw would fail an unexpected call)', async () => {
    const user = userEvent.setup();
    renderAt(<Login />, '/auth/login');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('E-mail is required.')).toBeTruthy();
    expect(screen.getByText('Password must be at least 10 characters.')).toBeTruthy();
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));

    await fill(user, 'not-an-email', 'short');
    expect(screen.getByText('Enter a valid e-mail address (at most 254 characters).')).toBeTruthy();
    expect(screen.getByText('Password must be at least 10 characters.')).toBeTruthy();
  });

  // A password of five emoji was ten characters when they were counted in UTF-16 units: it must still sign in.
  it('sends a password that new ones could not be (five emoji), as accounts may hold one', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/login', async ({ request }) => {
        sent = await request.json();
        return apiJson('POST /api/login', session);
      }),
    );
    const user = userEvent.setup();
    renderAt(<Login />, '/auth/login');
    await fill(user, 'ann@example.com', '😀😀😀😀😀');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(sent).toEqual({ email: 'ann@example.com', password: '😀😀😀😀😀' }));
  });

  it('signs in, then follows a same-site redirect', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/login', async ({ request }) => {
        sent = await request.json();
        return apiJson('POST /api/login', session);
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<Login />, `/auth/login?redirect=${encodeURIComponent('/admin/dashboard/my-wallet?tab=promo')}`);
    await fill(user, ' ann@example.com ', 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard/my-wallet?tab=promo'));
    expect(sent).toEqual({ email: 'ann@example.com', password: 'correct horse battery' });
    expect(sessionStore.session.isAuthenticated).toBe(true);
  });

  it('ignores an off-site redirect and goes to the dashboard', async () => {
    server.use(http.post('/api/login', () => apiJson('POST /api/login', session)));
    const user = userEvent.setup();
    const view = renderAt(<Login />, `/auth/login?redirect=${encodeURIComponent('//evil.example/steal')}`);
    await fill(user, 'ann@example.com', 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard'));
    expect(view.history).toEqual(['/admin/dashboard']); // replaced: Back does not return to sign-in
  });

  it("shows the server's message in an alert and refuses submit while sending", async () => {
    server.use(
      http.post('/api/login', async () => {
        await delay(50);
        return apiJson('POST /api/login', { message: 'Wrong e-mail or password.', code: 'auth.invalid_credentials' }, 401);
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<Login />, '/auth/login');
    await fill(user, 'ann@example.com', 'wrong password!!');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    // aria-disabled, not disabled: the button keeps keyboard focus while it is busy
    expect(screen.getByRole('button', { name: 'Signing in…' }).getAttribute('aria-disabled')).toBe('true');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Wrong e-mail or password.');
    expect(screen.getByRole('button', { name: 'Sign in' }).getAttribute('aria-disabled')).toBeNull();
    expect(view.currentPath()).toBe('/auth/login');
    expect(sessionStore.session.isAuthenticated).toBe(false);
  });

  // The server reads addresses in NFKC form (contract/rules.ts normalizeEmail), so the address
  // typed by an IME in fullwidth mode is kim@example.com: the page checks that form, not the raw
  // text, where the fullwidth ＠ and ． are no "@" and "." (PRODUCT §10: the client shows the
  // server's rules, no stricter).
  it('signs in with an address typed in fullwidth letters, as the server does', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/login', async ({ request }) => {
        sent = await request.json();
        return apiJson('POST /api/login', { ...session, email: 'kim@example.com' });
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<Login />, '/auth/login');
    await fill(user, '\uff4b\uff49\uff4d\uff20\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45\uff0e\uff43\uff4f\uff4d', 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.queryByText('Enter a valid e-mail address (at most 254 characters).')).toBeNull();
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard'));
    expect(sent).toEqual({ email: 'kim@example.com', password: 'correct horse battery' });
  });
});
