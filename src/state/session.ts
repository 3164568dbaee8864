import { proxy } from 'valtio';
import { GUEST, sessionApi, type Role, type Session } from '../api/session';
import { resetAllStores } from './resource';
import { asError } from '../api/client';
import { clearAdDraft } from './adDraft';
import { clearTyped } from './typedText';
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

/** Who a session is: the user's id, or null for a visitor. */
const userOf = (s: Session) => (s.isAuthenticated ? (s.id ?? '') : null);

/** Bumped by every read and every sign-in or sign-out: only the newest one's answer is the session. */
let version = 0;
/** When the last read was sent (Date.now()): the tab's re-checks wait SESSION_RECHECK_MS after it. */
let lastRead = -Infinity;

/**
 * Reads the session. A failed read (503 busy, a dropped connection) says nothing about it: the
 * session stays as it was (unknown until a first read succeeds) and the failure is kept, so the
 * dashboard guard offers a retry instead of taking a signed-in user for a visitor. A read that
 * finds another user than the tab's (or a visitor) forgets the previous user's data first, as a
 * sign-in does (but a visitor's read keeps the typed work, forgetTypedWork); one overtaken by a newer read, sign-in or sign-out is dropped.
 */
export async function loadSession(): Promise<Session> {
  const mine = ++version;
  lastRead = Date.now();
  sessionStore.loading = true;
  try {
    const s = await sessionApi.get();
    if (mine !== version) return sessionStore.session;
    if (sessionStore.loaded && userOf(s) !== userOf(sessionStore.session)) {
      forgetUserData();
      // Another user: theirs only stays. A visitor (the session ended by itself or elsewhere): all of it waits for its user.
      if (s.isAuthenticated) forgetTypedWork(s.id ?? '');
    }
    sessionStore.session = s;
    sessionStore.error = null;
    sessionStore.loaded = true;
    if (!s.isAuthenticated) sessionStore.signOutFailed = false; // the session ended after all
    return s;
  } catch (e) {
    if (mine === version) sessionStore.error = asError(e);
    return sessionStore.session;
  } finally {
    if (mine === version) sessionStore.loading = false;
  }
}

/**
 * Forgets everything of a previous user in this tab: the data areas and the pages' data
 * (routeStore: a public page's cache also holds the owner's preview of a hidden ad).
 */
function forgetUserData(): void {
  resetAllStores();
  clearRouteData();
}

/**
 * Forgets the typed work in this tab (ad drafts, moderators' dialog texts) of every user but
 * `keepFor` (who signed in: their work is given back to them only), or all of it (a sign-out
 * here: whoever uses the computer next finds none of it). A session that ended by itself or
 * elsewhere forgets none: its user may sign in again and go on.
 */
function forgetTypedWork(keepFor?: string): void {
  clearAdDraft(keepFor);
  clearTyped(keepFor);
}

/** The session changed here: a read under way answers for before, and the other tabs read theirs again. */
function changedHere(): void {
  version++;
  sessionStore.loading = false;
  tellOtherTabs();
}

function signedIn(s: Session): Session {
  forgetUserData(); // nothing of a previous user (or of this one as a visitor) may linger
  forgetTypedWork(s.id ?? ''); // but this user's typed work (from before the session ended) stays
  sessionStore.session = s;
  sessionStore.loaded = true;
  sessionStore.error = null;
  sessionStore.signOutFailed = false;
  changedHere();
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
    changedHere();
  } catch (e) {
    sessionStore.signOutFailed = true;
    throw e;
  } finally {
    forgetUserData();
    forgetTypedWork();
  }
}

/** A tab re-reads its session when looked at again at most this often (unless restored from the back-forward cache). */
export const SESSION_RECHECK_MS = 30_000;
const CHANNEL = 'xg.session';
/** Where this tab tells the others of a sign-in or sign-out (while watchSession runs). */
let channel: BroadcastChannel | null = null;

function tellOtherTabs(): void {
  channel?.postMessage('changed');
}

/** Reads the session again, unless a read went out less than SESSION_RECHECK_MS ago (`now`: anyway). */
export function recheckSession(now = false): void {
  if (now || Date.now() - lastRead >= SESSION_RECHECK_MS) void loadSession();
}

/**
 * Keeps the tab's session in step with the browser's cookie, which other tabs and devices end: a
 * tab left open after its user signed out elsewhere (another tab, "signed out everywhere" by a
 * password change) must not go on saying "Signed in as …" to whoever uses it next, nor send that
 * person's requests as someone else's. The session is read again when the tab is shown or
 * focused (throttled), at once when it is restored from the back-forward cache or another tab
 * signs in or out (BroadcastChannel, where the browser has one). Returns the matching stop.
 */
export function watchSession(): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') recheckSession();
  };
  const onFocus = () => recheckSession();
  const onPageShow = (e: PageTransitionEvent) => recheckSession(e.persisted === true);
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('focus', onFocus);
  window.addEventListener('pageshow', onPageShow);
  const own = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  if (own) own.onmessage = () => void loadSession();
  channel = own;
  return () => {
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('focus', onFocus);
    window.removeEventListener('pageshow', onPageShow);
    own?.close();
    if (channel === own) channel = null;
  };
}

type SessionLike = { readonly userRoles: readonly Role[] };

export function hasRole(session: SessionLike, ...roles: Role[]): boolean {
  return roles.some((r) => session.userRoles.includes(r));
}
export const isProvider = (s: SessionLike) => hasRole(s, 'PROVIDER_USER');
export const isAdmin = (s: SessionLike) => hasRole(s, 'ADMIN_USER', 'MASTER_USER');
export const isMaster = (s: SessionLike) => hasRole(s, 'MASTER_USER');
