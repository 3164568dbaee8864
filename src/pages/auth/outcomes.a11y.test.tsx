import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import ForgotPassword from './ForgotPassword';
import ResetPassword from './ResetPassword';
import Unsubscribe from './Unsubscribe';

// The outcome replaces the form with the button pressed: it takes focus (as the dashboard's
// FormSuccess with `focus` does), so a screen reader reads it and focus is not lost to <body>.
describe('auth pages: the outcome that replaces the form takes focus', () => {
  it('forgot password: the “link sent” message', async () => {
    server.use(http.post('/api/password-reset-request', () => apiJson('POST /api/password-reset-request', { accepted: true }, 202)));
    const user = userEvent.setup();
    renderAt(<ForgotPassword />, '/auth/forgot-password');
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    const note = await screen.findByRole('status');
    expect(note.textContent).toContain('If ann@example.com belongs to an account');
    await waitFor(() => expect(document.activeElement).toBe(note));
  });

  it('reset password: the “password changed” message', async () => {
    server.use(http.post('/api/password-reset', () => apiJson('POST /api/password-reset', { reset: true })));
    const user = userEvent.setup();
    renderAt(<ResetPassword />, '/auth/reset-password?token=abc123');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('Repeat the new password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    const note = await screen.findByRole('status');
    expect(note.textContent).toContain('Your password was changed');
    await waitFor(() => expect(document.activeElement).toBe(note));
  });

  it('unsubscribe: the “done” message', async () => {
    server.use(http.post('/api/unsubscribe', () => apiJson('POST /api/unsubscribe', { unsubscribed: true })));
    const user = userEvent.setup();
    renderAt(<Unsubscribe />, '/unsubscribe?u=user1&t=abc');
    await user.click(screen.getByRole('button', { name: 'Stop reminder e-mails' }));
    const note = await screen.findByRole('status');
    expect(note.textContent).toBe('Done: you will get no more reminder e-mails.');
    await waitFor(() => expect(document.activeElement).toBe(note));
  });
});
