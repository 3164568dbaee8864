import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import Register from './Register';

describe('Register page', () => {
  it('applies the shared rules and the confirmation before sending', async () => {
    const user = userEvent.setup();
    renderAt(<Register />, '/auth/register');
    await user.type(screen.getByLabelText('E-mail'), 'ann@example.com');
    await user.type(screen.getByLabelText('Nickname'), 'a!');
    await user.type(screen.getByLabelText('Password'), 'ann@example.com');
    await user.type(screen.getByLabelText('Confirm password'), 'something else');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Nickname must be 3–30 letters, digits, _ - or .')).toBeTruthy();
    expect(screen.getByText('Password must not be your e-mail address.')).toBeTruthy();
    expect(screen.getByText('The passwords do not match.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Nickname'));
    expect(screen.getByLabelText('Password').getAttribute('autocomplete')).toBe('new-password');
  });

  it('registers and lands on the dashboard', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/register', async ({ request }) => {
        sent = await request.json();
        return apiJson(
          'POST /api/register',
          { isAuthenticated: true, id: 'u9', email: 'bo@example.com', userStatus: 'pending', userRoles: ['PROVIDER_USER'] },
          201,
        );
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<Register />, '/auth/register');
    await user.type(screen.getByLabelText('E-mail'), 'bo@example.com');
    await user.type(screen.getByLabelText('Nickname'), 'bo.the_great');
    await user.type(screen.getByLabelText('Password'), 'a long enough secret');
    await user.type(screen.getByLabelText('Confirm password'), 'a long enough secret');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard'));
    expect(sent).toEqual({ email: 'bo@example.com', password: 'a long enough secret', nickname: 'bo.the_great' });
  });

  it('takes an address typed in fullwidth letters as the server does, and sends that form', async () => {
    let sent: unknown;
    server.use(
      http.post('/api/register', async ({ request }) => {
        sent = await request.json();
        return apiJson(
          'POST /api/register',
          { isAuthenticated: true, id: 'u9', email: 'kim@example.com', userStatus: 'pending', userRoles: ['PROVIDER_USER'] },
          201,
        );
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<Register />, '/auth/register');
    await user.type(screen.getByLabelText('E-mail'), '\uff4b\uff49\uff4d\uff20\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45\uff0e\uff43\uff4f\uff4d');
    await user.type(screen.getByLabelText('Nickname'), 'kim_k');
    await user.type(screen.getByLabelText('Password'), 'a long enough secret');
    await user.type(screen.getByLabelText('Confirm password'), 'a long enough secret');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard'));
    expect(sent).toEqual({ email: 'kim@example.com', password: 'a long enough secret', nickname: 'kim_k' });
  });

  // One mailbox, one account: the server refuses these (contract/rules.ts checkNewEmail), and the
  // page says why before sending (msw would fail an unexpected call).
  it('refuses a domain with a trailing dot or in its xn-- form before sending', async () => {
    const user = userEvent.setup();
    renderAt(<Register />, '/auth/register');
    const email = screen.getByLabelText('E-mail');
    await user.type(email, 'ann@example.com.');
    await user.type(screen.getByLabelText('Nickname'), 'ann_1');
    await user.type(screen.getByLabelText('Password'), 'a long enough secret');
    await user.type(screen.getByLabelText('Confirm password'), 'a long enough secret');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Enter a valid e-mail address (at most 254 characters).')).toBeTruthy();
    expect(document.activeElement).toBe(email);
    await user.clear(email);
    await user.type(email, 'bo@XN--bcher-kva.de');
    expect(screen.getByText("Write your e-mail's domain as it is spelled (e.g. bücher.de), not in its xn-- form.")).toBeTruthy();
    await user.clear(email);
    await user.type(email, 'bo@bücher.de');
    expect(screen.queryByText(/valid e-mail address|as it is spelled/)).toBeNull();
    expect(email.getAttribute('aria-invalid')).not.toBe('true');
  });

  it('shows a conflict from the server', async () => {
    server.use(
      http.post('/api/register', () =>
        apiJson('POST /api/register', { message: 'An account with this e-mail already exists.', code: 'auth.email_taken' }, 409),
      ),
    );
    const user = userEvent.setup();
    renderAt(<Register />, '/auth/register');
    await user.type(screen.getByLabelText('E-mail'), 'bo@example.com');
    await user.type(screen.getByLabelText('Nickname'), 'bobby');
    await user.type(screen.getByLabelText('Password'), 'a long enough secret');
    await user.type(screen.getByLabelText('Confirm password'), 'a long enough secret');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An account with this e-mail already exists.');
  });
});
