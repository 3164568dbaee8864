import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { sessionStore } from '../../state/session';
import type { Profile } from '../../api/profile';
import { PROFILE } from '../../test/profile';
import type { Session } from '../../api/session';
import MyProfile from './MyProfile';

const base = PROFILE;

/** A tiny profile server: GET returns the current profile, changes go through the given handlers. */
function profileServer(initial: Profile = base) {
  const state = { profile: { ...initial } };
  server.use(
    http.get('/api/user-profile', () => apiJson('GET /api/user-profile', state.profile)),
    // The delete dialog looks for money left (nothing here; DeleteAccount.test.tsx tests it).
    http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [] })),
    http.get('/api/my-invoices', () => apiJson('GET /api/my-invoices', { invoices: [], total: 0, page: 1, pageSize: 100 })),
  );
  return state;
}

describe('MyProfile page', () => {
  it('shows the profile card', async () => {
    profileServer({ ...base, status: 'pending', roles: ['PROVIDER_USER', 'ADMIN_USER'] });
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const card = (await screen.findByRole('heading', { level: 2, name: 'ann' })).closest('section')!;
    expect(within(card).getByText('ann@example.com')).toBeTruthy();
    expect(within(card).getByText('Pending')).toBeTruthy();
    expect(within(card).getByText('Advertiser, Admin')).toBeTruthy();
  });

  it('updates the nickname and shows the saved one', async () => {
    const state = profileServer();
    let sent: unknown;
    server.use(
      http.post('/api/nickname-update', async ({ request }) => {
        sent = await request.json();
        state.profile = { ...state.profile, nickname: 'ann_b' };
        return apiJson('POST /api/nickname-update', state.profile);
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const input = await screen.findByLabelText('Nickname');
    const save = screen.getByRole('button', { name: 'Save nickname' }) as HTMLButtonElement;
    expect(save.getAttribute('aria-disabled')).toBe('true'); // nothing changed yet (it keeps focus: aria-disabled, not disabled)
    await user.clear(input);
    await user.type(input, 'ann_b');
    await user.click(save);
    expect((await screen.findByRole('status')).textContent).toBe('Your nickname has been saved.');
    expect(sent).toEqual({ nickname: 'ann_b' });
    expect(await screen.findByRole('heading', { level: 2, name: 'ann_b' })).toBeTruthy();
  });

  it('refuses an invalid nickname without calling the server, and shows server errors', async () => {
    profileServer();
    server.use(
      http.post('/api/nickname-update', () =>
        apiJson('POST /api/nickname-update', { message: 'Too many requests. Please wait and try again.', code: 'request.rate_limited' }, 429),
      ),
    );
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const input = await screen.findByLabelText('Nickname');
    await user.clear(input);
    await user.type(input, 'no spaces allowed');
    await user.click(screen.getByRole('button', { name: 'Save nickname' }));
    expect(screen.getByText('Nickname must be 3–30 letters, digits, _ - or .')).toBeTruthy();
    await user.clear(input);
    await user.type(input, 'ann_c');
    await user.click(screen.getByRole('button', { name: 'Save nickname' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Please wait and try again.');
  });

  it('checks the avatar before upload and sends it as multipart field "avatar"', async () => {
    const state = profileServer();
    let uploaded: { name: string; type: string; size: number } | null = null;
    server.use(
      http.post('/api/avatar-update', async ({ request }) => {
        const file = (await request.formData()).get('avatar') as File;
        uploaded = { name: file.name, type: file.type, size: file.size };
        state.profile = { ...state.profile, avatar: '/uploads/avatars/u1.webp' };
        return apiJson('POST /api/avatar-update', state.profile);
      }),
    );
    const user = userEvent.setup({ applyAccept: false });
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const input = await screen.findByLabelText('Choose an image');
    expect(input.getAttribute('accept')).toBe('image/jpeg,image/png,image/webp');

    await user.upload(input, new File(['GIF89a'], 'a.gif', { type: 'image/gif' }));
    expect(screen.getByText('This file is not a JPEG, PNG or WebP image.')).toBeTruthy();
    await user.upload(input, new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' }));
    expect(screen.getByText('This image is larger than 10 MB.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload picture' }).getAttribute('aria-disabled')).toBe('true');

    await user.upload(input, new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'me.jpg', { type: 'image/jpeg' }));
    await user.click(screen.getByRole('button', { name: 'Upload picture' }));
    expect((await screen.findByRole('status')).textContent).toBe('Your profile picture has been updated.');
    expect(uploaded).toEqual({ name: 'me.jpg', type: 'image/jpeg', size: 4 });
    expect((await screen.findByAltText('Profile picture of ann')).getAttribute('src')).toBe('/uploads/avatars/u1.webp');
  });

  it('asks for the e-mail change and explains the link', async () => {
    profileServer();
    let sent: unknown;
    server.use(
      http.post('/api/email-reset', async ({ request }) => {
        sent = await request.json();
        return apiJson('POST /api/email-reset', { pendingEmail: 'ann.new@example.com' });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    await user.type(await screen.findByLabelText('New e-mail'), 'ann.new@example.com');
    await user.type(screen.getByLabelText('Your password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Send confirmation link' }));
    expect((await screen.findByRole('status')).textContent).toContain('We sent a confirmation link to ann.new@example.com');
    expect(sent).toEqual({ newEmail: 'ann.new@example.com', password: 'correct horse battery' });
  });

  it("changes the password, and shows the server's refusal in the page's language", async () => {
    profileServer();
    const session: Session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    sessionStore.session = session;
    const sent: unknown[] = [];
    server.use(
      http.post('/api/password-update', async ({ request }) => {
        const body = (await request.json()) as { currentPassword: string };
        sent.push(body);
        if (body.currentPassword !== 'correct horse battery') {
          return apiJson(
            'POST /api/password-update',
            { message: 'The password is wrong.', code: 'profile.wrong_password', params: { field: 'currentPassword' } },
            400,
          );
        }
        return apiJson('POST /api/password-update', session);
      }),
    );
    await i18n.changeLanguage('es');
    try {
      const user = userEvent.setup();
      renderAt(<MyProfile />, '/es/admin/dashboard/my-profile');
      await user.type(await screen.findByLabelText('Contraseña actual'), 'wrong horse battery');
      await user.type(screen.getByLabelText('Nueva contraseña'), 'a brand new secret');
      await user.type(screen.getByLabelText('Confirmar nueva contraseña'), 'a brand new secret');
      await user.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
      expect((await screen.findByRole('alert')).textContent).toBe('La contraseña es incorrecta.');

      await user.clear(screen.getByLabelText('Contraseña actual'));
      await user.type(screen.getByLabelText('Contraseña actual'), 'correct horse battery');
      await user.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
      expect((await screen.findByRole('status')).textContent).toMatch(/^Tu contraseña ha cambiado/);
      expect(sent).toEqual([
        { currentPassword: 'wrong horse battery', newPassword: 'a brand new secret' },
        { currentPassword: 'correct horse battery', newPassword: 'a brand new secret' },
      ]);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('deletes the account after a password confirmation dialog, then signs out and goes home', async () => {
    profileServer();
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    let request: { url: string; body: unknown } | null = null;
    server.use(
      http.delete('/api/delete-my-profile', async ({ request: r }) => {
        request = { url: r.url, body: await r.json() };
        return apiJson('DELETE /api/delete-my-profile', { isAuthenticated: false, userRoles: ['GUEST_USER'] });
      }),
      http.post('/api/logout', () => apiJson('POST /api/logout', { isAuthenticated: false, userRoles: ['GUEST_USER'] })),
    );
    const user = userEvent.setup();
    const view = renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Password'));
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(within(dialog).getByText('Enter your password to delete your account.')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(view.currentPath()).toBe('/'));
    expect(new URL(request!.url).search).toBe('?confirm=true');
    expect(request!.body).toEqual({ password: 'correct horse battery' });
    expect(sessionStore.session.isAuthenticated).toBe(false);
  });

  it('closes the dialog on Escape without deleting anything', async () => {
    profileServer();
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete my account' }));
  });

  it('keeps Tab inside the dialog (it is modal), both ways round', async () => {
    profileServer();
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Password'));
    await user.tab({ shift: true }); // from its first control: to its last, not the page behind
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Delete account' }));
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    for (let i = 0; i < 6; i++) await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
  });
});
