import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../../test/server';
import { apiJson } from '../../../test/contract';
import { renderAt } from '../../../test/render';
import { apiError } from '../../../components/market/testing';
import type { Profile } from '../../../api/profile';
import { PROFILE } from '../../../test/profile';
import MyProfile from '../MyProfile';

const base = PROFILE;

/** The profile and the two phone-verification routes, the code being 246810. */
function phoneServer(initial: Profile = base) {
  const state = { profile: { ...initial } };
  const sent: { asked: unknown[]; confirmed: unknown[] } = { asked: [], confirmed: [] };
  server.use(
    http.get('/api/user-profile', () => apiJson('GET /api/user-profile', state.profile)),
    http.post('/api/phone-verification', async ({ request }) => {
      const body = (await request.json()) as { phone: string };
      sent.asked.push(body);
      return apiJson('POST /api/phone-verification', { phone: body.phone, expiresAt: '2025-01-02T03:14:05.000Z' }, 202);
    }),
    http.post('/api/phone-verification/confirm', async ({ request }) => {
      const body = (await request.json()) as { code: string };
      sent.confirmed.push(body);
      if (body.code !== '246810')
        return apiError('POST /api/phone-verification/confirm', 400, 'phone.code_wrong', { field: 'code', triesLeft: 5 - sent.confirmed.length });
      const phone = (sent.asked.at(-1) as { phone: string }).phone;
      state.profile = { ...state.profile, phone, phoneVerified: true };
      return apiJson('POST /api/phone-verification/confirm', { phone, phoneVerified: true });
    }),
  );
  return { state, sent };
}

const section = async () => (await screen.findByRole('heading', { level: 2, name: 'Phone number' })).closest('section')!;

describe('the phone section of my profile', () => {
  it('texts a code to the number, then the right code verifies it', async () => {
    const srv = phoneServer();
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const box = within(await section());
    expect(box.getByText('No verified phone yet.')).toBeTruthy();

    const number = box.getByLabelText('Mobile phone (US)');
    await user.type(number, '555-0123');
    await user.click(box.getByRole('button', { name: 'Text me a code' }));
    expect(box.getByText('Enter a US phone number, for example (212) 555-0123.')).toBeTruthy();
    expect(srv.sent.asked).toEqual([]);

    await user.clear(number);
    await user.type(number, '(212) 555-0123');
    await user.click(box.getByRole('button', { name: 'Text me a code' }));
    expect((await box.findByRole('status')).textContent).toBe('We texted a 6-digit code to (212) 555-0123. It works for 10 minutes.');
    expect(srv.sent.asked).toEqual([{ phone: '+12125550123' }]);
    // Kept unworded, worded at render: a language switch re-words it (and back).
    await act(() => i18n.changeLanguage('es'));
    expect(box.getByRole('status').textContent).toBe('Enviamos un código de 6 dígitos a (212) 555-0123. Sirve durante 10 minutos.');
    await act(() => i18n.changeLanguage('en'));
    const code = box.getByLabelText('Code from the text message');
    await waitFor(() => expect(document.activeElement).toBe(code));

    await user.type(code, '12ab');
    await user.click(box.getByRole('button', { name: 'Verify' }));
    expect(box.getByText('Enter the 6 digits of the text message.')).toBeTruthy();
    expect(srv.sent.confirmed).toEqual([]);

    await user.clear(code);
    await user.type(code, '111111');
    await user.click(box.getByRole('button', { name: 'Verify' }));
    expect((await box.findByRole('alert')).textContent).toBe('Wrong code (tries left: 4).');

    await user.clear(code);
    await user.type(code, '246810');
    await user.click(box.getByRole('button', { name: 'Verify' }));
    expect((await box.findByRole('status')).textContent).toBe('Your phone number (212) 555-0123 is verified.');
    expect(srv.sent.confirmed).toEqual([{ code: '111111' }, { code: '246810' }]);
    expect(box.getByTestId('phone-state').textContent).toBe('Verified phone: (212) 555-0123 ✓ Phone verified');
    expect(box.getByLabelText('Mobile phone (US)')).toBeTruthy(); // back to the first step, for another number
  });

  it('shows a verified phone, and the server’s refusals in the page’s language', async () => {
    phoneServer({ ...base, phone: '+16465550100', phoneVerified: true });
    server.use(http.post('/api/phone-verification', () => apiError('POST /api/phone-verification', 429, 'phone.too_many_codes', { minutes: 25 })));
    await i18n.changeLanguage('es');
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/es/admin/dashboard/my-profile');
    const box = within((await screen.findByRole('heading', { level: 2, name: 'Número de teléfono' })).closest('section')!);
    expect(box.getByTestId('phone-state').textContent).toBe('Teléfono verificado: (646) 555-0100 ✓ Teléfono verificado');
    await user.type(box.getByLabelText('Teléfono móvil (EE. UU.)'), '2125550123');
    await user.click(box.getByRole('button', { name: 'Envíame un código' }));
    expect((await box.findByRole('alert')).textContent).toBe('Pediste demasiados códigos. Inténtalo de nuevo en 25 min.');
    expect(box.getByLabelText('Teléfono móvil (EE. UU.)')).toBeTruthy(); // still on the first step
  });

  it('goes back to the number for another number or a new code', async () => {
    const srv = phoneServer();
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const box = within(await section());
    await user.type(box.getByLabelText('Mobile phone (US)'), '+1 212 555 0123');
    await user.click(box.getByRole('button', { name: 'Text me a code' }));
    await box.findByLabelText('Code from the text message');
    await user.click(box.getByRole('button', { name: 'Use another number or a new code' }));
    expect(box.queryByRole('status')).toBeNull();
    await user.click(box.getByRole('button', { name: 'Text me a code' }));
    await box.findByLabelText('Code from the text message');
    expect(srv.sent.asked).toEqual([{ phone: '+12125550123' }, { phone: '+12125550123' }]);
  });
});
