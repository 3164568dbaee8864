import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { appTestSetup, appTestTeardown } from '../test/app';
import { App } from '../app/App';
import type { ErrorBody } from '../../contract/errors/index.ts';
import { createResource, onReset, resetAllStores } from './resource';
import { ApiError, errorMessage } from '../api/client';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('createResource', () => {
  it('goes through loading to data', async () => {
    const d = deferred<number[]>();
    const r = createResource(() => d.promise);
    const p = r.load();
    expect(r.state).toMatchObject({ loading: true, error: null, data: null });
    d.resolve([1, 2]);
    expect(await p).toEqual([1, 2]);
    expect(r.state).toMatchObject({ loading: false, error: null, data: [1, 2] });
  });

  it('keeps the error itself (worded when shown) and returns null on failure', async () => {
    const refused = new ApiError('No access.', 403);
    const r = createResource(async () => {
      throw refused;
    });
    expect(await r.load()).toBeNull();
    expect(r.state).toMatchObject({ loading: false, error: refused, data: null });
    expect(errorMessage(r.state.error)).toBe('No access.');
  });

  it('lets only the latest load write (an older, slower answer is dropped)', async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const r = createResource((which: 'a' | 'b') => (which === 'a' ? first.promise : second.promise));
    const pa = r.load('a');
    const pb = r.load('b');
    second.resolve('b');
    await pb;
    first.resolve('a');
    await pa;
    expect(r.state.data).toBe('b');
  });

  it('resetAllStores returns every area to its initial state and runs extra resets', async () => {
    const a = createResource(async () => 'A');
    const b = createResource(async () => {
      throw new Error('broken');
    });
    let extra = 0;
    onReset(() => extra++);
    await a.load();
    await b.load();
    const pending = deferred<string>();
    const c = createResource(() => pending.promise);
    const pc = c.load();
    resetAllStores();
    expect(a.state).toMatchObject({ loading: false, error: null, data: null });
    expect(b.state).toMatchObject({ loading: false, error: null, data: null });
    expect(extra).toBeGreaterThanOrEqual(1);
    // A load in flight at reset time must not refill the area afterwards.
    pending.resolve('late');
    await pc;
    expect(c.state).toMatchObject({ loading: false, data: null });
  });
});

describe('a data area’s failure across a language switch', () => {
  beforeEach(appTestSetup);
  afterEach(appTestTeardown);

  // A list that could not be read says why in the page's language, also after a language switch
  // (as the public pages do: routeStore keeps the code): the area keeps the error itself and the
  // screen words it when it renders, so the Spanish cart page reads the refusal in Spanish.
  it('re-words a failed cart load in Spanish after switching from English', async () => {
    const BUSY: ErrorBody = { message: 'Too many requests. Please wait and try again.', code: 'request.rate_limited' };
    server.use(
      http.get('/api/session', () =>
        apiJson('GET /api/session', { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] }),
      ),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [] })),
      http.get('/api/cart-ads-by-user', () => apiJson('GET /api/cart-ads-by-user', BUSY as never, 429)),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', { pricing: [] })),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', { pricing: [] })),
    );
    window.history.replaceState(null, '', '/admin/dashboard/my-cart');
    const user = userEvent.setup();
    render(createElement(App));
    await screen.findByRole('heading', { level: 1, name: 'My cart' }, { timeout: 5000 });
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Please wait and try again.');

    const languages = within(screen.getByRole('banner')).getByRole('navigation', { name: 'Language' });
    await user.click(within(languages).getByRole('button', { name: 'Language' }));
    await user.click(within(languages).getByRole('link', { name: 'Español' }));
    await screen.findByRole('heading', { level: 1, name: 'Mi carrito' }, { timeout: 5000 });
    expect(screen.getByRole('alert').textContent).toBe('Demasiadas solicitudes. Espera un momento e inténtalo de nuevo.');
  });
});
