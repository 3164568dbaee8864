import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import ConfirmEmail from './ConfirmEmail';

describe('ConfirmEmail page', () => {
  it('posts the token once and reports success', async () => {
    const tokens: unknown[] = [];
    server.use(
      http.post('/api/confirm-email-reset', async ({ request }) => {
        tokens.push(await request.json());
        return HttpResponse.json({ email: 'new@example.com' });
      }),
      http.get('/api/session', () => HttpResponse.json({ isAuthenticated: false, userRoles: ['GUEST_USER'] })),
    );
    renderAt(<ConfirmEmail />, '/auth/confirm-email?token=tok-123');
    expect(await screen.findByText(/Your e-mail address has been changed/)).toBeTruthy();
    expect(tokens).toEqual([{ token: 'tok-123' }]);
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });

  it("shows the server's reason when the link is spent or expired", async () => {
    server.use(http.post('/api/confirm-email-reset', () => HttpResponse.json({ message: 'This link has expired.' }, { status: 400 })));
    renderAt(<ConfirmEmail />, '/auth/confirm-email?token=old');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('We could not confirm this e-mail change.');
    expect(alert.textContent).toContain('This link has expired.');
  });

  it('says the link is incomplete without a token, and calls nothing', () => {
    renderAt(<ConfirmEmail />, '/auth/confirm-email');
    expect(screen.getByRole('alert').textContent).toContain('it has no confirmation code');
  });
});
