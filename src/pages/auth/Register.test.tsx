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
