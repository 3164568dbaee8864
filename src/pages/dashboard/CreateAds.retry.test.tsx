import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, delay, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, CITIES_NY, STATES, makeOwnerAd } from '../../components/market/testing';
import CreateAds from './CreateAds';
import { resetAllStores } from '../../state/resource';
import { sessionStore } from '../../state/session';

// A provider posting from a phone with a slow, flaky connection: the upload takes long, an answer
// may be lost, and the user presses "Post ad" again.

function baseHandlers() {
  server.use(
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
    http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
    http.get('/api/cities-from-state/:stateId', () => apiJson('GET /api/cities-from-state/:stateId', { cities: CITIES_NY })),
  );
}

const jpeg = (name: string, size = 1000) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });

async function fillForm(
  user: ReturnType<typeof userEvent.setup>,
  title = 'Warm and friendly company',
  photos = [jpeg('one.jpg'), jpeg('two.jpg'), jpeg('three.jpg')],
) {
  await user.selectOptions(screen.getByLabelText('Listing type'), 'female_esc');
  await user.type(screen.getByLabelText('Title'), title);
  await user.type(screen.getByLabelText('Description'), 'Relaxed evenings, good conversation and a warm welcome every time.');
  await user.selectOptions(screen.getByLabelText('Age'), '30');
  await waitFor(() => expect(screen.getByRole('option', { name: 'New York' })).toBeTruthy());
  await user.selectOptions(screen.getByLabelText('State'), 'st-ny');
  await waitFor(() => expect(screen.getByRole('option', { name: 'Buffalo' })).toBeTruthy());
  await user.selectOptions(screen.getByLabelText('City'), 'ct-buf');
  await user.type(screen.getByLabelText('Phone'), '(212) 555-0123');
  await user.upload(screen.getByLabelText('Photos'), photos);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('post-ad on a slow uplink', () => {
  // Up to 60 MB of photos are sent as picked; on a phone's uplink that takes far more than the 30 s
  // every other call waits. The post waits for its upload, and the page goes to the cart when it ends.
  it('an ad whose upload and encoding take 40 s is posted: the page goes to the cart, no error', async () => {
    baseHandlers();
    let received = 0;
    server.use(
      http.post('/api/post-ad', async () => {
        received++;
        await delay(40_000); // the photos arrive and are re-encoded; the ad is stored
        return apiJson('POST /api/post-ad', { ad: makeOwnerAd({ status: 'unpaid' }) }, 201);
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    await fillForm(user);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(screen.getByRole('button', { name: 'Post ad' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(41_000);
    });
    vi.useRealTimers();
    expect(received).toBe(1);
    await waitFor(() => expect(screen.queryByRole('alert')?.textContent ?? view.currentPath()).toBe('/admin/dashboard/my-cart'));
  });
});

describe('a post whose answer was lost', () => {
  it('is sent again with the same request key; a changed form gets a new one, and a success ends the key', async () => {
    baseHandlers();
    const keys: (string | null)[] = [];
    let lose = 2;
    server.use(
      http.post('/api/post-ad', ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        if (lose-- > 0) return HttpResponse.error(); // done on the server or not: the answer is lost
        return apiJson('POST /api/post-ad', { ad: makeOwnerAd({ status: 'unpaid' }) }, 201);
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong.');
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    await waitFor(() => expect(keys).toHaveLength(2));
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(keys[1]).toBe(keys[0]);
    // The user changes the title: another post, another key.
    await user.type(screen.getByLabelText('Title'), ' tonight');
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard/my-cart'));
    expect(keys).toHaveLength(3);
    expect(keys[2]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(keys[2]).not.toBe(keys[0]);

    // The next ad, the same form content even: a new action after a success, a new key.
    view.unmount();
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    await fillForm(user, 'Warm and friendly company tonight');
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    await waitFor(() => expect(keys).toHaveLength(4));
    expect(new Set(keys.slice(1))).toHaveProperty('size', 3);
  });
});

describe('a post whose answer was lost, posted again after a reload', () => {
  // The error says "Something went wrong."; the provider reloads, gets the form back as a draft,
  // picks the same photo again and posts: the server made the ad the first time, and must be
  // told it is the same post (its request key), or the ad lands in the cart twice.
  it('is sent with the same request key; the key ends with the success', async () => {
    baseHandlers();
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    sessionStore.loaded = true;
    const keys: (string | null)[] = [];
    server.use(
      http.post('/api/post-ad', ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        if (keys.length === 1) return HttpResponse.error(); // the ad is made, its answer lost
        return apiJson('POST /api/post-ad', { ad: makeOwnerAd({ status: 'unpaid' }) }, 201);
      }),
    );
    // The same file picked again: the same name, size, type and date.
    const photo = () => new File([new Uint8Array(1000)], 'one.jpg', { type: 'image/jpeg', lastModified: 1_700_000_000_000 });
    const user = userEvent.setup();
    const first = renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    await fillForm(user, undefined, [photo()]);
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong.');

    // The reload: the page and everything the tab held in memory go; the tab's storage stays.
    first.unmount();
    resetAllStores();
    const view = renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    expect(screen.getByRole('status').textContent).toContain('We kept what you wrote here');
    await user.upload(screen.getByLabelText('Photos'), [photo()]);
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard/my-cart'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('xg.post-ad'))).toEqual([]); // posted: nothing left behind
  });
});
