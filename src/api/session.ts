import { api } from './client';
import type { authApi } from '../../contract/api/auth.ts';
import type { BodyOf, ResponseOf } from '../../contract/api/types.ts';

type Auth = typeof authApi;
export type Session = ResponseOf<Auth['GET /api/session']>;
export type Role = Session['userRoles'][number];

export const GUEST: Session = { isAuthenticated: false, userRoles: ['GUEST_USER'] };

export const sessionApi = {
  get: () => api.get<Session>('session', { redirectOnAuth: false }),
  login: (body: BodyOf<Auth['POST /api/login']>) => api.post<ResponseOf<Auth['POST /api/login']>>('login', { json: body, redirectOnAuth: false }),
  register: (body: BodyOf<Auth['POST /api/register']>) =>
    api.post<ResponseOf<Auth['POST /api/register'], 201>>('register', { json: body, redirectOnAuth: false }),
  logout: () => api.post<ResponseOf<Auth['POST /api/logout']>>('logout', { redirectOnAuth: false }),
  requestPasswordReset: (body: BodyOf<Auth['POST /api/password-reset-request']>) =>
    api.post<ResponseOf<Auth['POST /api/password-reset-request'], 202>>('password-reset-request', { json: body, redirectOnAuth: false }),
  unsubscribe: (query: { u: string; t: string }) =>
    api.post<ResponseOf<Auth['POST /api/unsubscribe']>>('unsubscribe', { searchParams: query, json: {}, redirectOnAuth: false }),
  resetPassword: (body: BodyOf<Auth['POST /api/password-reset']>) =>
    api.post<ResponseOf<Auth['POST /api/password-reset']>>('password-reset', { json: body, redirectOnAuth: false }),
};
