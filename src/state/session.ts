import { proxy } from 'valtio';
import { GUEST, sessionApi, type Role, type Session } from '../api/session';
import { resetAllStores } from './resource';
import { asError } from '../api/client';
import { clearAdDraft } from './adDraft';
import { clearRouteData } from '../app/routeStore';

/** The session, read from GET /api/session (the cookie is HttpOnly: script cannot read it). */
export const sessionStore = proxy<{
  session: Session;
  /** The session is known: read from the server at least once (or set by a sign-in). */
  loaded: boolean;
  loading: boolean;
  /** Why the last read failed (worded where shown, errorMessage); the session is then unknown, not a guest. */
  error: Error | null;
  /**
   * The last sign-out did not reach the server: the cookie still works, so whoever uses this
   * browser next is still this user. The shell says so (SignOutFailed) until a sign-out succeeds.
   */
  signOutFailed: boolean;
}>({
  session: GUEST,
  loaded: false,
  loading: false,
  error: null,
  signOutFailed: false,
});

/**
 * Reads the session. A failed read (503 busy, a dropped connection) says nothing about it: the
 * session stays as it was (unknown until a first read succeeds) and the failure is kept, so the
 * dashboard guard offers a retry instead of taking a signed-in user for a visitor.
 */
export async function loadSession(): Promise<Session> {
  sessionStore.loading = true;
  try {
    const s = await sessionApi.get();
    sessionStore.session = s;
    sessionStore.error = null;
    sessionStore.loaded = true;
    if (!s.isAuthenticated) sessionStore.signOutFailed = false; // the session ended after all
    return s;
  } catch (e) {
    sessionStore.error = asError(e);
    return sessionStore.session;
  } finally {
    sessionStore.loading = false;
  }
}

/**
 * Forgets everything of a previous user in this tab: the data areas, the ad drafts and the pages'
 * data (routeStore: a public page's cache also holds the owner's preview of a hidden ad).
 */
function forgetUserData(): void {
  resetAllStores();
  clearAdDraft(); // an ad being written is not left in the tab for whoever uses it next
  clearRouteData();
}

function signedIn(s: Session): Session {
  forgetUserData(); // nothing of a previous user (or of this one as a visitor) may linger
  sessionStore.session = s;
  sessionStore.loaded = true;
  sessionStore.error = null;
  sessionStore.signOutFailed = false;
  return s;
}

export async function login(email: string, password: string): Promise<Session> {
  return signedIn(await sessionApi.login({ email, password }));
}

export async function register(email: string, password: string, nickname: string): Promise<Session> {
  return signedIn(await sessionApi.register({ email, password, nickname }));
}

/**
 * Logout clears the cookie on the server and resets every client data area. The data areas are
 * forgotten even when the call fails (a shared computer), but only the server's answer ends the
 * session: on a failure the user stays signed in here too, `signOutFailed` says so, and the
 * promise rejects.
 */
export async function logout(): Promise<void> {
  try {
    await sessionApi.logout();
    sessionStore.session = GUEST;
    sessionStore.signOutFailed = false;
  } catch (e) {
    sessionStore.signOutFailed = true;
    throw e;
  } finally {
    forgetUserData();
  }
}

type SessionLike = { readonly userRoles: readonly Role[] };

export function hasRole(session: SessionLike, ...roles: Role[]): boolean {
  return roles.some((r) => session.userRoles.includes(r));
}
export const isProvider = (s: SessionLike) => hasRole(s, 'PROVIDER_USER');
export const isAdmin = (s: SessionLike) => hasRole(s, 'ADMIN_USER', 'MASTER_USER');
export const isMaster = (s: SessionLike) => hasRole(s, 'MASTER_USER');
