import { api } from './client';

export type Role = 'GUEST_USER' | 'PROVIDER_USER' | 'ADMIN_USER' | 'MASTER_USER';
export interface Session {
  isAuthenticated: boolean;
  id?: string;
  email?: string;
  userStatus?: 'pending' | 'approved' | 'suspended';
  userRoles: Role[];
}

export const GUEST: Session = { isAuthenticated: false, userRoles: ['GUEST_USER'] };

export const sessionApi = {
  get: () => api.get<Session>('session', { redirectOnAuth: false }),
  login: (body: { email: string; password: string }) => api.post<Session>('login', { json: body, redirectOnAuth: false }),
  register: (body: { email: string; password: string; nickname: string }) => api.post<Session>('register', { json: body, redirectOnAuth: false }),
  logout: () => api.post<Session>('logout', { redirectOnAuth: false }),
};
