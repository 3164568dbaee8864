import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import ConfirmEmail from './ConfirmEmail';

const SPENT = {
  message: 'This confirmation link is invalid, already used or expired.',
  code: 'profile.confirmation_link_invalid',
  params: { field: 'token' },
} as const;

describe('ConfirmEmail page', () => {
  it('posts the token once and reports success', async () => {
    const tokens: unknown[] = [];
    server.use(
      http.post('/api/confirm-email-reset', async ({ request }) => {
        tokens.push(await request.json());
        return apiJson('POST /api/confirm-email-reset', { email: 'new@example.com' });
      }),
      http.get('/api/session', () => apiJson('GET /api/session', { isAuthenticated: false, userRoles: ['GUEST_USER'] })),
    );
    renderAt(<ConfirmEmail />, '/auth/confirm-email?token=tok-123');
    expect(await screen.findByText(/Your e-mail address has been changed/)).toBeTruthy();
    expect(tokens).toEqual([{ token: 'tok-123' }]);
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });

  it("shows the server's reason when the link is spent or expired", async () => {
    server.use(http.post('/api/confirm-email-reset', () => apiJson('POST /api/confirm-email-reset', SPENT, 400)));
    renderAt(<ConfirmEmail />, '/auth/confirm-email?token=old');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('We could not confirm this e-mail change.');
    expect(alert.textContent).toContain('This confirmation link is invalid, already used or expired.');
  });

  it("gives the reason in the page's language", async () => {
    server.use(http.post('/api/confirm-email-reset', () => apiJson('POST /api/confirm-email-reset', SPENT, 400)));
    await i18n.changeLanguage('pt');
    try {
      renderAt(<ConfirmEmail />, '/pt/auth/confirm-email?token=spent');
      expect((await screen.findByRole('alert')).textContent).toContain('Este link de confirmação é inválido, já foi usado ou expirou.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('says the link is incomplete without a token, and calls nothing', () => {
    renderAt(<ConfirmEmail />, '/auth/confirm-email');
    expect(screen.getByRole('alert').textContent).toContain('it has no confirmation code');
  });
});
