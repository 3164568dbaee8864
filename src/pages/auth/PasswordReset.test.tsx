import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import ForgotPassword from './ForgotPassword';
import ResetPassword from './ResetPassword';
import Login from './Login';

describe('Forgot password', () => {
  it('is linked from the sign-in page', () => {
    renderAt(<Login />, '/auth/login');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/auth/forgot-password');
  });

  it('checks the address, sends it, and answers the same whatever the server knows', async () => {
    let sent: unknown = null;
    server.use(
      http.post('/api/password-reset-request', async ({ request }) => {
        sent = await request.json();
        return apiJson('POST /api/password-reset-request', { accepted: true }, 202);
      }),
    );
    const user = userEvent.setup();
    renderAt(<ForgotPassword />, '/auth/forgot-password');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(screen.getByText('E-mail is required.')).toBeTruthy();
    expect(sent).toBeNull();
    await user.type(screen.getByLabelText('E-mail'), ' ann@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('If ann@example.com belongs to an account'));
    expect(sent).toEqual({ email: 'ann@example.com' });
  });

  it('sends an address typed in fullwidth letters in the form the server reads', async () => {
    let sent: unknown = null;
    server.use(
      http.post('/api/password-reset-request', async ({ request }) => {
        sent = await request.json();
        return apiJson('POST /api/password-reset-request', { accepted: true }, 202);
      }),
    );
    const user = userEvent.setup();
    renderAt(<ForgotPassword />, '/auth/forgot-password');
    await user.type(screen.getByLabelText('E-mail'), '\uff4b\uff49\uff4d\uff20\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45\uff0e\uff43\uff4f\uff4d');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('If kim@example.com belongs to an account'));
    expect(sent).toEqual({ email: 'kim@example.com' });
  });

  it('shows a 429 in the page language', async () => {
    server.use(
      http.post('/api/password-reset-request', () =>
        apiJson(
          'POST /api/password-reset-request',
          { message: 'Too many password reset requests. Please try again in an hour.', code: 'auth.too_many_reset_requests' },
          429,
        ),
      ),
    );
    const user = userEvent.setup();
    renderAt(<ForgotPassword />, '/auth/forgot-password');
    await user.type(screen.getByLabelText('E-mail'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Too many password reset requests'));
  });
});

describe('Reset password', () => {
  it('sends the token with the new password once both fields agree, then points to sign-in', async () => {
    let sent: unknown = null;
    server.use(
      http.post('/api/password-reset', async ({ request }) => {
        sent = await request.json();
        return apiJson('POST /api/password-reset', { reset: true });
      }),
    );
    const user = userEvent.setup();
    renderAt(<ResetPassword />, '/auth/reset-password?token=abc123');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('Repeat the new password'), 'a brand new passphrasX');
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(screen.getByText('The two passwords differ.')).toBeTruthy();
    expect(sent).toBeNull();
    await user.clear(screen.getByLabelText('Repeat the new password'));
    await user.type(screen.getByLabelText('Repeat the new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Your password was changed'));
    expect(sent).toEqual({ token: 'abc123', newPassword: 'a brand new passphrase' });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth/login');
  });

  it('says when the link is used or expired', async () => {
    server.use(
      http.post('/api/password-reset', () =>
        apiJson(
          'POST /api/password-reset',
          { message: 'This reset link is invalid, used or expired. Ask for a new one.', code: 'auth.reset_token_invalid', params: { field: 'token' } },
          400,
        ),
      ),
    );
    const user = userEvent.setup();
    renderAt(<ResetPassword />, '/auth/reset-password?token=old');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('Repeat the new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('This reset link is invalid, used or expired'));
  });

  it('without a token says so', () => {
    renderAt(<ResetPassword />, '/auth/reset-password');
    expect(screen.getByRole('alert').textContent).toBe('This link is incomplete. Ask for a new one.');
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/auth/forgot-password');
  });
});
