import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../../test/server';
import { renderAt } from '../../../test/render';
import { apiError } from '../../../components/market/testing';
import { sessionStore } from '../../../state/session';
import { PasswordForm } from './PasswordForm';

/** What a screen reader reads after a field's name: the texts its aria-describedby points at. */
function description(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

async function submitWith(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Current password'), 'wrong horse battery');
  await user.type(screen.getByLabelText('New password'), 'a brand new secret');
  await user.type(screen.getByLabelText('Confirm new password'), 'a brand new secret{Enter}');
  return screen.findByRole('alert');
}

describe('password form: the server refuses the current password', () => {
  it('marks the Current password field invalid, described by the refusal, and moves focus to it', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    server.use(http.post('/api/password-update', () => apiError('POST /api/password-update', 400, 'profile.wrong_password')));
    const user = userEvent.setup();
    renderAt(<PasswordForm />);
    expect((await submitWith(user)).textContent).toBe('The password is wrong.');
    const current = screen.getByLabelText('Current password');
    expect(current.getAttribute('aria-invalid')).toBe('true');
    expect(description(current)).toBe('The password is wrong.');
    expect(document.activeElement).toBe(current);
  });

  it('leaves the field valid for a refusal that is not about it', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    server.use(http.post('/api/password-update', () => apiError('POST /api/password-update', 429, 'request.rate_limited')));
    const user = userEvent.setup();
    renderAt(<PasswordForm />);
    await submitWith(user);
    expect(screen.getByLabelText('Current password').getAttribute('aria-invalid')).toBeNull();
  });
});
