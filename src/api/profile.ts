import { api } from './client';
import type { profileApi as profileRoutes } from '../../contract/api/profile.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

// Every shape here is the contract's (contract/api/profile.ts), imported as types only.
type P = typeof profileRoutes;
export type Profile = ResponseOf<P['GET /api/user-profile']>;
export type UserStatus = Profile['status'];

export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

export const profileApi = {
  get: () => api.get<Profile>('user-profile'),
  updateNickname: (body: BodyOf<P['POST /api/nickname-update']>) => api.post<ResponseOf<P['POST /api/nickname-update']>>('nickname-update', { json: body }),
  // A wrong password may come back as 401/403: that is a form error, not a lost session, so
  // these three calls show the message instead of sending the user to sign in.
  updatePassword: (body: BodyOf<P['POST /api/password-update']>) =>
    api.post<ResponseOf<P['POST /api/password-update']>>('password-update', { json: body, redirectOnAuth: false }),
  requestEmailChange: (body: BodyOf<P['POST /api/email-reset']>) =>
    api.post<ResponseOf<P['POST /api/email-reset']>>('email-reset', { json: body, redirectOnAuth: false }),
  // The link may be opened signed out or on another device: the token is the proof, so a 401
  // here must not bounce the visitor to the sign-in page.
  confirmEmailChange: (body: BodyOf<P['POST /api/confirm-email-reset']>) =>
    api.post<ResponseOf<P['POST /api/confirm-email-reset']>>('confirm-email-reset', { json: body, redirectOnAuth: false }),
  /** Multipart: the one file goes in the field "avatar". */
  updateAvatar: (file: File) => {
    const body = new FormData();
    body.append('avatar', file, file.name);
    return api.post<ResponseOf<P['POST /api/avatar-update']>>('avatar-update', { body });
  },
  // The password goes in the body: URLs end up in access logs.
  deleteMyProfile: (body: BodyOf<P['DELETE /api/delete-my-profile']>) => {
    const query: QueryOf<P['DELETE /api/delete-my-profile']> = { confirm: true };
    return api.delete<ResponseOf<P['DELETE /api/delete-my-profile']>>('delete-my-profile', { searchParams: query, json: body, redirectOnAuth: false });
  },
};
