import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../../test/server';
import { apiJson } from '../../../test/contract';
import { renderAt } from '../../../test/render';
import { PROFILE } from '../../../test/profile';
import MyProfile from '../MyProfile';

/** The profile page's reads; nickname and avatar changes are saved into the profile it answers. */
function profileServer() {
  const state = { profile: { ...PROFILE }, nicknames: 0 };
  server.use(
    http.get('/api/user-profile', () => apiJson('GET /api/user-profile', state.profile)),
    http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [] })),
    http.get('/api/my-invoices', () => apiJson('GET /api/my-invoices', { invoices: [], total: 0, page: 1, pageSize: 100 })),
    http.post('/api/nickname-update', async ({ request }) => {
      state.nicknames++;
      state.profile = { ...state.profile, nickname: ((await request.json()) as { nickname: string }).nickname };
      return apiJson('POST /api/nickname-update', state.profile);
    }),
    http.post('/api/avatar-update', () => {
      state.profile = { ...state.profile, avatar: '/uploads/avatars/u1.webp' };
      return apiJson('POST /api/avatar-update', state.profile);
    }),
  );
  return state;
}

// jsdom keeps focus on a disabled button (Chromium drops it to <body>): "kept" is focused and not `disabled`.
describe('profile forms after a save', () => {
  it('keeps focus on "Save nickname" once nothing is left to save, ignores it, and words "saved" again in Spanish', async () => {
    const srv = profileServer();
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const input = await screen.findByLabelText('Nickname');
    await user.clear(input);
    await user.type(input, 'ann_b');
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save nickname' });
    save.focus();
    await user.keyboard('{Enter}');
    expect((await screen.findByRole('status')).textContent).toBe('Your nickname has been saved.');
    await waitFor(() => expect(save.getAttribute('aria-disabled')).toBe('true')); // the field holds the saved nickname
    expect(document.activeElement).toBe(save);
    expect(save.disabled).toBe(false);
    await user.keyboard('{Enter}');
    expect(srv.nicknames).toBe(1);

    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByRole('status').textContent).toBe('Tu apodo se ha guardado.');
  });

  it('keeps focus on "Upload picture" once its file is sent, and words "updated" again in Spanish', async () => {
    profileServer();
    const user = userEvent.setup({ applyAccept: false });
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    await user.upload(await screen.findByLabelText('Choose an image'), new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'me.jpg', { type: 'image/jpeg' }));
    const upload = screen.getByRole<HTMLButtonElement>('button', { name: 'Upload picture' });
    upload.focus();
    await user.keyboard('{Enter}');
    expect((await screen.findByRole('status')).textContent).toBe('Your profile picture has been updated.');
    expect(upload.getAttribute('aria-disabled')).toBe('true'); // no file left to send
    expect(document.activeElement).toBe(upload);
    expect(upload.disabled).toBe(false);

    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByRole('status').textContent).toBe('Tu foto de perfil se ha actualizado.');
  });

  it('words a broken nickname rule again in Spanish, and sends nothing', async () => {
    const srv = profileServer();
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const input = await screen.findByLabelText('Nickname');
    await user.clear(input);
    await user.type(input, 'a b{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(screen.getByText('Nickname must be 3–30 letters, digits, _ - or .')).toBeTruthy();

    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByText('El apodo debe tener de 3 a 30 letras, dígitos, _ - o .')).toBeTruthy();
    expect(screen.queryByText('Nickname must be 3–30 letters, digits, _ - or .')).toBeNull();
    expect(srv.nicknames).toBe(0);
  });
});
