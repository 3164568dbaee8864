import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { createResource } from './resource';
import { hasRole, isAdmin, isMaster, isProvider, loadSession, login, logout, register, sessionStore } from './session';
import { GUEST, type Session } from '../api/session';
import { errorMessage } from '../api/client';

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
});
