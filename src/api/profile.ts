import { api } from './client';
import type { Role } from './session';

export type UserStatus = 'pending' | 'approved' | 'suspended';

export interface Profile {
  id: string;
  email: string;
  nickname: string;
  avatar: string | null;
  status: UserStatus;
  roles: Role[];
  phone: string | null;
  createdAt: string;
}

export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

export const profileApi = {
  get: () => api.get<Profile>('user-profile'),
  updateNickname: (nickname: string) => api.post<unknown>('nickname-update', { json: { nickname } }),
  // A wrong password may come back as 401/403: that is a form error, not a lost session, so
  // these three calls show the message instead of sending the user to sign in.
  updatePassword: (currentPassword: string, newPassword: string) =>
    api.post<unknown>('password-update', { json: { currentPassword, newPassword }, redirectOnAuth: false }),
  requestEmailChange: (newEmail: string, password: string) =>
    api.post<unknown>('email-reset', { json: { newEmail, password }, redirectOnAuth: false }),
  // The link may be opened signed out or on another device: the token is the proof, so a 401
  // here must not bounce the visitor to the sign-in page.
  confirmEmailChange: (token: string) => api.post<unknown>('confirm-email-reset', { json: { token }, redirectOnAuth: false }),
  updateAvatar: (file: File) => {
    const body = new FormData();
    body.append('avatar', file, file.name);
    return api.post<unknown>('avatar-update', { body });
  },
  // The password goes in the body: URLs end up in access logs.
  deleteMyProfile: (password: string) =>
    api.delete<unknown>('delete-my-profile', { searchParams: { confirm: true }, json: { password }, redirectOnAuth: false }),
};
