import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { sessionStore } from '../../state/session';
import type { Profile } from '../../api/profile';
import MyProfile from './MyProfile';

const base: Profile = {
  id: 'u1',
  email: 'ann@example.com',
  nickname: 'ann',
  avatar: null,
  status: 'approved',
  roles: ['PROVIDER_USER'],
  phone: null,
  createdAt: '2025-01-02T03:04:05.000Z',
};

/** A tiny profile server: GET returns the current profile, changes go through the given handlers. */
function profileServer(initial: Profile = base) {
  const state = { profile: { ...initial } };
  server.use(http.get('/api/user-profile', () => HttpResponse.json(state.profile)));
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
        return HttpResponse.json({ nickname: 'ann_b' });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const input = await screen.findByLabelText('Nickname');
    const save = screen.getByRole('button', { name: 'Save nickname' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true); // nothing changed yet
    await user.clear(input);
    await user.type(input, 'ann_b');
    await user.click(save);
    expect((await screen.findByRole('status')).textContent).toBe('Your nickname has been saved.');
    expect(sent).toEqual({ nickname: 'ann_b' });
    expect(await screen.findByRole('heading', { level: 2, name: 'ann_b' })).toBeTruthy();
  });

  it('refuses an invalid nickname without calling the server, and shows server errors', async () => {
    profileServer();
    server.use(http.post('/api/nickname-update', () => HttpResponse.json({ message: 'This nickname is taken.' }, { status: 409 })));
    const user = userEvent.setup();
    renderAt(<MyProfile />, '/admin/dashboard/my-profile');
    const input = await screen.findByLabelText('Nickname');
    await user.clear(input);
    await user.type(input, 'no spaces allowed');
    await user.click(screen.getByRole('button', { name: 'Save nickname' }));
    expect(screen.getByText('Nickname must be 3–30 letters, digits, _ - or .')).toBeTruthy();
    await user.clear(input);
    await user.type(input, 'taken');
    await user.click(screen.getByRole('button', { name: 'Save nickname' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This nickname is taken.');
  });

  it('checks the avatar before upload and sends it as multipart field "avatar"', async () => {
    const state = profileServer();
    let uploaded: { name: string; type: string; size: number } | null = null;
    server.use(
      http.post('/api/avatar-update', async ({ request }) => {
        const file = (await request.formData()).get('avatar') as File;
        uploaded = { name: file.name, type: file.type, size: file.size };
        state.profile = { ...state.profile, avatar: '/uploads/avatars/u1.webp' };
        return HttpResponse.json({ avatar: state.profile.avatar });
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
    expect((screen.getByRole('button', { name: 'Upload picture' }) as HTMLButtonElement).disabled).toBe(true);

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
        return HttpResponse.json({ ok: true });
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

  it('deletes the account after a password confirmation dialog, then signs out and goes home', async () => {
    profileServer();
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    let request: { url: string; body: unknown } | null = null;
    server.use(
      http.delete('/api/delete-my-profile', async ({ request: r }) => {
        request = { url: r.url, body: await r.json() };
        return HttpResponse.json({ deleted: true });
      }),
      http.post('/api/logout', () => HttpResponse.json({ isAuthenticated: false, userRoles: ['GUEST_USER'] })),
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
});
