import { afterEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { createResource } from './resource';
import { SESSION_RECHECK_MS, hasRole, isAdmin, isMaster, isProvider, loadSession, login, logout, register, sessionStore, watchSession } from './session';
import { GUEST, type Session } from '../api/session';
import { errorMessage } from '../api/client';
import { EMPTY_AD_FORM } from '../components/market/adForm';
import { readAdDraft, readPostKey, keepPostKey, saveAdDraft } from './adDraft';
import { keepTyped, readTyped } from './typedText';

const member: Session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };

describe('session store', () => {
  it('loads the session from GET /api/session', async () => {
    server.use(http.get('/api/session', () => apiJson('GET /api/session', member)));
    await loadSession();
    expect(sessionStore.loaded).toBe(true);
    expect(sessionStore.session).toEqual(member);
  });

  // A failed read says nothing about the session: it stays unknown (not a guest's, which would
  // send a signed-in user to the sign-in form) and the failure is kept for the guard to show.
  it('keeps the session unknown, with the failure, when it cannot be read', async () => {
    server.use(http.get('/api/session', () => HttpResponse.error()));
    expect(await loadSession()).toEqual(GUEST);
    expect(sessionStore.session).toEqual(GUEST);
    expect(errorMessage(sessionStore.error)).toBe('Something went wrong.');
    expect(sessionStore.loaded).toBe(false);
    // A session already known stays as it was when a later read fails.
    server.use(http.get('/api/session', () => apiJson('GET /api/session', member)));
    await loadSession();
    expect(sessionStore.error).toBeNull();
    server.use(http.get('/api/session', () => HttpResponse.error()));
    expect(await loadSession()).toEqual(member);
    expect(sessionStore.loaded).toBe(true);
  });

  it('signs in and starts from clean data areas', async () => {
    const area = createResource(async () => 'previous user data');
    await area.load();
    let body: unknown;
    server.use(
      http.post('/api/login', async ({ request }) => {
        body = await request.json();
        return apiJson('POST /api/login', member);
      }),
    );
    await login('ann@example.com', 'correct horse battery');
    expect(body).toEqual({ email: 'ann@example.com', password: 'correct horse battery' });
    expect(sessionStore.session).toEqual(member);
    expect(area.state.data).toBeNull();
  });

  it('registers with e-mail, password and nickname', async () => {
    let body: unknown;
    server.use(
      http.post('/api/register', async ({ request }) => {
        body = await request.json();
        return apiJson('POST /api/register', member, 201);
      }),
    );
    await register('ann@example.com', 'correct horse battery', 'ann');
    expect(body).toEqual({ email: 'ann@example.com', password: 'correct horse battery', nickname: 'ann' });
    expect(sessionStore.session.isAuthenticated).toBe(true);
  });

  // Only the server's answer ends the session (the cookie is HttpOnly): a failed logout still
  // forgets every data area in the tab, but keeps the user signed in and says so (signOutFailed).
  it('logout resets every data area and the session; a failed call resets the areas and keeps the session', async () => {
    const wallets = createResource(async () => ['wallet']);
    sessionStore.session = member;
    await wallets.load();
    server.use(http.post('/api/logout', () => apiJson('POST /api/logout', GUEST)));
    await logout();
    expect(wallets.state.data).toBeNull();
    expect(sessionStore.session).toEqual(GUEST);
    expect(sessionStore.signOutFailed).toBe(false);

    sessionStore.session = member;
    await wallets.load();
    server.use(http.post('/api/logout', () => HttpResponse.error()));
    await expect(logout()).rejects.toThrow();
    expect(wallets.state.data).toBeNull();
    expect(sessionStore.session).toEqual(member);
    expect(sessionStore.signOutFailed).toBe(true);

    server.use(http.post('/api/logout', () => apiJson('POST /api/logout', GUEST)));
    await logout();
    expect(sessionStore.session).toEqual(GUEST);
    expect(sessionStore.signOutFailed).toBe(false);
  });

  it('role checks follow the product table', () => {
    const admin = { userRoles: ['PROVIDER_USER', 'ADMIN_USER'] as const };
    const master = { userRoles: ['PROVIDER_USER', 'MASTER_USER'] as const };
    expect(isProvider(GUEST)).toBe(false);
    expect(isProvider(member)).toBe(true);
    expect(isAdmin(member)).toBe(false);
    expect(isAdmin(admin)).toBe(true);
    expect(isAdmin(master)).toBe(true);
    expect(isMaster(admin)).toBe(false);
    expect(isMaster(master)).toBe(true);
    expect(hasRole(GUEST, 'GUEST_USER')).toBe(true);
  });

  // The tab reads its session again (shown again, a socket closed by the server) and finds another
  // user than the one it shows, or a visitor: it forgets the previous user's data, as a sign-in in
  // the tab does, before showing the new session (or B would see A's wallets on a mounted page).
  it("a read that finds another user (or a visitor) forgets the previous user's data; the same user's stays", async () => {
    const area = createResource(async () => 'ann data');
    const bob: Session = { ...member, id: 'u2', email: 'bob@example.com' };
    let answer: Session = member;
    server.use(http.get('/api/session', () => apiJson('GET /api/session', answer)));
    await loadSession();
    await area.load();
    await loadSession(); // the same user: nothing forgotten
    expect(area.state.data).toBe('ann data');
    answer = bob;
    await loadSession();
    expect({ session: sessionStore.session.id, data: area.state.data }).toEqual({ session: 'u2', data: null });
    await area.load();
    answer = GUEST;
    await loadSession();
    expect({ session: sessionStore.session.isAuthenticated, data: area.state.data }).toEqual({ session: false, data: null });
  });

  // A re-read sent before a sign-in in this tab answers for before it: it must not undo the sign-in.
  it('drops a read overtaken by a sign-in', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    server.use(
      http.get('/api/session', async () => {
        await held;
        return apiJson('GET /api/session', GUEST);
      }),
      http.post('/api/login', () => apiJson('POST /api/login', member)),
    );
    const read = loadSession();
    await login('ann@example.com', 'correct horse battery');
    release();
    await read;
    expect({ session: sessionStore.session.id, loading: sessionStore.loading }).toEqual({ session: 'u1', loading: false });
  });
});

describe('watchSession: a tab follows sign-outs made elsewhere', () => {
  let stop: (() => void) | null = null;
  afterEach(() => {
    stop?.();
    stop = null;
    vi.useRealTimers();
  });

  function countReads(answer: () => Session = () => GUEST) {
    const reads = { n: 0 };
    server.use(
      http.get('/api/session', () => {
        reads.n++;
        return apiJson('GET /api/session', answer());
      }),
    );
    return reads;
  }

  function show() {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
    } finally {
      delete (document as unknown as { visibilityState?: string }).visibilityState;
    }
  }

  // Another tab signed out (the cookie is the browser's): the tab shown or focused again reads
  // its session, at most once per SESSION_RECHECK_MS (focus flips every time a window is clicked).
  it('reads the session when the tab is shown or focused again, throttled', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let answer = member;
    const reads = countReads(() => answer);
    stop = watchSession();
    await loadSession(); // the read at boot
    answer = GUEST; // another tab signs out
    show();
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new Event('pageshow')); // a plain load, not a restore
    await new Promise((r) => setTimeout(r, 50));
    expect({ reads: reads.n, signedIn: sessionStore.session.isAuthenticated }).toEqual({ reads: 1, signedIn: true });
    vi.setSystemTime(Date.now() + SESSION_RECHECK_MS);
    show();
    window.dispatchEvent(new Event('focus'));
    await vi.waitFor(() => expect(sessionStore.session.isAuthenticated).toBe(false));
    window.dispatchEvent(new Event('focus'));
    await new Promise((r) => setTimeout(r, 50));
    expect(reads.n).toBe(2);
  });

  // A page restored from the back-forward cache may be hours old: read at once.
  it('reads the session at once when the page is restored from the back-forward cache', async () => {
    const reads = countReads();
    stop = watchSession();
    await loadSession();
    const restored = new Event('pageshow') as Event & { persisted?: boolean };
    Object.defineProperty(restored, 'persisted', { value: true });
    window.dispatchEvent(restored);
    await vi.waitFor(() => expect(reads.n).toBe(2));
  });

  // A sign-in or sign-out tells the browser's other tabs, which read their session at once.
  it('tells the other tabs of a sign-in or sign-out, and reads the session when another tab tells', async () => {
    if (typeof BroadcastChannel !== 'function') return; // feature-detected: nothing to tell without it
    const reads = countReads(() => member);
    server.use(
      http.post('/api/login', () => apiJson('POST /api/login', member)),
      http.post('/api/logout', () => apiJson('POST /api/logout', GUEST)),
    );
    stop = watchSession();
    const otherTab = new BroadcastChannel('xg.session');
    try {
      const told: unknown[] = [];
      otherTab.onmessage = (e: MessageEvent) => told.push(e.data);
      await login('ann@example.com', 'correct horse battery');
      await logout();
      await vi.waitFor(() => expect(told).toHaveLength(2));
      await loadSession();
      expect(reads.n).toBe(1);
      otherTab.postMessage('changed'); // within the throttle's wait: read all the same
      await vi.waitFor(() => expect(reads.n).toBe(2));
    } finally {
      otherTab.close();
    }
  });
});

// A provider's ad draft, its post's request key and a moderator's rejection reason are kept in the
// tab for their user. A session that ends by itself or elsewhere (the tab reads a visitor's) and a
// sign-in as the same user keep them: that user goes on. A sign-in by someone else forgets the
// previous user's; a sign-out in this tab (the shared computer) forgets all.
describe('typed work across session changes', () => {
  const bob: Session = { ...member, id: 'u2', email: 'bob@example.com' };
  const draft = { ...EMPTY_AD_FORM, title: 'Evenings downtown', description: 'Calm company for dinners and walks.' };

  function annTyped() {
    saveAdDraft('u1', draft, EMPTY_AD_FORM);
    saveAdDraft('u1', { ...draft, title: 'An edit of a live ad' }, EMPTY_AD_FORM, { adId: 'ad-1', basis: 'v1' });
    keepPostKey('u1', { content: 'the form', key: 'k-ann' });
    keepTyped('u1', 'reject:ad-9', { reason: 'The photos show someone else.', category: 'other' });
  }
  const annWork = () => ({
    draft: readAdDraft('u1', EMPTY_AD_FORM)?.values.title ?? null,
    edit: readAdDraft('u1', EMPTY_AD_FORM, { adId: 'ad-1' })?.values.title ?? null,
    postKey: readPostKey('u1')?.key ?? null,
    reason: readTyped('u1', 'reject:ad-9')?.reason ?? null,
  });
  const ALL = { draft: 'Evenings downtown', edit: 'An edit of a live ad', postKey: 'k-ann', reason: 'The photos show someone else.' };
  const NONE = { draft: null, edit: null, postKey: null, reason: null };

  it('stay when the session ends elsewhere and the same user signs in again', async () => {
    let answer: Session = member;
    server.use(
      http.get('/api/session', () => apiJson('GET /api/session', answer)),
      http.post('/api/login', () => apiJson('POST /api/login', member)),
    );
    await loadSession();
    annTyped();
    answer = GUEST; // signed out in another tab: the socket closes, the tab reads a visitor's session
    await loadSession();
    expect(sessionStore.session.isAuthenticated).toBe(false);
    expect(annWork()).toEqual(ALL);
    await login('ann@example.com', 'correct horse battery');
    expect(annWork()).toEqual(ALL);
  });

  it('go when another user signs in, or is found signed in; and all of them on a sign-out here', async () => {
    let answer: Session = member;
    server.use(
      http.get('/api/session', () => apiJson('GET /api/session', answer)),
      http.post('/api/login', () => apiJson('POST /api/login', bob)),
      http.post('/api/logout', () => apiJson('POST /api/logout', GUEST)),
    );
    await loadSession();
    annTyped();
    answer = GUEST;
    await loadSession();
    await login('bob@example.com', 'correct horse battery');
    expect(annWork()).toEqual(NONE);

    // Bob signed in in another tab while this one showed Ann: Bob's own stays.
    sessionStore.session = member;
    annTyped();
    keepTyped('u2', 'close:r-1', { text: 'Checked: not a duplicate.' });
    answer = bob;
    await loadSession();
    expect(annWork()).toEqual(NONE);
    expect(readTyped('u2', 'close:r-1')).toEqual({ text: 'Checked: not a duplicate.' });

    await logout();
    expect(readTyped('u2', 'close:r-1')).toBeNull();
  });
});
