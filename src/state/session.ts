import { proxy } from 'valtio';
import { GUEST, sessionApi, type Role, type Session } from '../api/session';
import { resetAllStores } from './resource';
import { errorMessage } from '../api/client';
import { clearAdDraft } from './adDraft';

/** The session, read from GET /api/session (the cookie is HttpOnly: script cannot read it). */
export const sessionStore = proxy<{ session: Session; loaded: boolean; loading: boolean; error: string | null }>({
  session: GUEST,
  loaded: false,
  loading: false,
  error: null,
});

export async function loadSession(): Promise<Session> {
  sessionStore.loading = true;
  try {
    const s = await sessionApi.get();
    sessionStore.session = s;
    sessionStore.error = null;
    return s;
  } catch (e) {
    sessionStore.session = GUEST;
    sessionStore.error = errorMessage(e);
    return GUEST;
  } finally {
    sessionStore.loaded = true;
    sessionStore.loading = false;
  }
}

export async function login(email: string, password: string): Promise<Session> {
  const s = await sessionApi.login({ email, password });
  resetAllStores(); // nothing of a previous user may linger
  sessionStore.session = s;
  sessionStore.loaded = true;
  return s;
}

export async function register(email: string, password: string, nickname: string): Promise<Session> {
  const s = await sessionApi.register({ email, password, nickname });
  resetAllStores();
  sessionStore.session = s;
  sessionStore.loaded = true;
  return s;
}

/** Logout clears the cookie on the server and resets every client data area. */
export async function logout(): Promise<void> {
  try {
    await sessionApi.logout();
  } finally {
    resetAllStores();
    clearAdDraft(); // an ad being written is not left in the tab for whoever uses it next
    sessionStore.session = GUEST;
  }
}

type SessionLike = { readonly userRoles: readonly Role[] };

export function hasRole(session: SessionLike, ...roles: Role[]): boolean {
  return roles.some((r) => session.userRoles.includes(r));
}
export const isProvider = (s: SessionLike) => hasRole(s, 'PROVIDER_USER');
export const isAdmin = (s: SessionLike) => hasRole(s, 'ADMIN_USER', 'MASTER_USER');
export const isMaster = (s: SessionLike) => hasRole(s, 'MASTER_USER');
