import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { apiError, makeOwnerAd } from '../components/market/testing';
import { sessionStore } from './session';
import { cartQuery, cartStore, deleteCartAd } from './cart';

describe('deleting from the cart again after a lost answer', () => {
  // The first delete was done on the server and its answer lost; pressed again, the server answers
  // 404 (the ad is gone). That is done: the ad leaves the cart instead of staying with "not found".
  it('takes "not found" as done: the ad leaves the cart', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    sessionStore.loaded = true;
    let cart = [makeOwnerAd({ status: 'unpaid', title: 'First' }), makeOwnerAd({ status: 'unpaid', title: 'Second' })];
    const gone = new Set<string>();
    server.use(
      http.get('/api/cart-ads-by-user', () => apiJson('GET /api/cart-ads-by-user', { pendingAds: cart, total: cart.length, page: 1, pageSize: 20 })),
      http.delete('/api/delete-cart-ad/:id', ({ params }) => {
        const id = String(params.id);
        if (gone.has(id)) return apiError('DELETE /api/delete-cart-ad/:id', 404, 'ad.not_found');
        gone.add(id);
        cart = cart.filter((a) => a.id !== id); // done on the server
        return HttpResponse.error(); // the answer is lost
      }),
    );
    await cartStore.load();
    const [first] = cartStore.state.data!;
    await expect(deleteCartAd(first.id)).rejects.toBeTruthy();
    expect(cartStore.state.data!.map((a) => a.title)).toEqual(['First', 'Second']);
    await deleteCartAd(first.id);
    expect(cartStore.state.data!.map((a) => a.title)).toEqual(['Second']);
    expect(cartQuery.total).toBe(1);
  });

  it('another refusal is still a failure and the ad stays', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    const cart = [makeOwnerAd({ status: 'unpaid', title: 'Paid meanwhile' })];
    server.use(
      http.get('/api/cart-ads-by-user', () => apiJson('GET /api/cart-ads-by-user', { pendingAds: cart, total: 1, page: 1, pageSize: 20 })),
      http.delete('/api/delete-cart-ad/:id', () => apiError('DELETE /api/delete-cart-ad/:id', 409, 'ad.delete_only_unpaid')),
    );
    await cartStore.load();
    await expect(deleteCartAd(cart[0].id)).rejects.toMatchObject({ code: 'ad.delete_only_unpaid' });
    expect(cartStore.state.data!.map((a) => a.title)).toEqual(['Paid meanwhile']);
  });
});
