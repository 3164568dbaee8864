import { afterEach, describe, expect, it, vi } from 'vitest';
import { http } from 'msw';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { makeOwnerAd } from '../components/market/testing';
import { login, logout, sessionStore } from './session';
import { startSocket } from './socket';
import { createTopUp, currentInvoice, watchInvoice } from './payments';
import { addPromoCode, walletsStore } from './wallets';
import { profileStore, updateNickname } from './profile';
import { postAd } from './ads';
import { cartStore } from './cart';
import { GUEST, type Session } from '../api/session';
import type { PostAdFields } from '../api/ads';
import type { Profile } from '../api/profile';
import type { Wallet } from '../api/wallets';

// The shared computer: user A works in a tab, signs out, user B signs in in the same tab. Nothing
// of A's may show on B's screens, in particular not through a request A started before leaving.

const ann: Session = { isAuthenticated: true, id: 'u-ann', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
const bob: Session = { isAuthenticated: true, id: 'u-bob', email: 'bob@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };

/** An answer held back until the test lets it through. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

function signedInAsAnn() {
  sessionStore.session = ann;
  sessionStore.loaded = true;
}

/** Ann signs out in this tab, Bob signs in in it. */
async function annLeavesBobComes() {
  server.use(
    http.post('/api/logout', () => apiJson('POST /api/logout', GUEST)),
    http.post('/api/login', () => apiJson('POST /api/login', bob)),
  );
  await logout();
  await login('bob@example.com', 'correct horse battery');
  expect(sessionStore.session.id).toBe('u-bob');
}

const profileOf = (id: string, email: string, nickname: string, phone: string | null): Profile => ({
  id,
  email,
  nickname,
  avatar: null,
  status: 'approved',
  roles: ['PROVIDER_USER'],
  phone,
  phoneVerified: phone !== null,
  createdAt: '2026-01-01T00:00:00.000Z',
});

/** Stands in for the browser's WebSocket; the test plays the server's side. */
class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  url: string;
  constructor(url: string) {
    this.url = url;
    FakeWebSocket.instances.push(this);
  }
  send() {}
  close() {
    this.readyState = 3;
  }
  accept() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

let stopSocket: (() => void) | null = null;
afterEach(() => {
  stopSocket?.();
  stopSocket = null;
  vi.unstubAllGlobals();
  localStorage.removeItem('xg.currentInvoice');
});

describe('the shared computer: nothing of the previous user reaches the next one', () => {
  // A top-up A started (BTCPay can take seconds) that answers after B signed in must not become
  // B's watched invoice (B would see A's checkout link, and paying it would fund A's wallet), nor
  // be remembered for every tab's wallet.
  it("a top-up answered after A signed out and B signed in is not B's current invoice", async () => {
    signedInAsAnn();
    const slow = gate();
    server.use(
      http.post('/api/create-btc-payment-invoice', async () => {
        await slow.opened;
        return apiJson('POST /api/create-btc-payment-invoice', { invoiceId: 'inv-ann', checkoutLink: 'https://btcpay.example/i/inv-ann' });
      }),
    );
    const pending = createTopUp('50.00');
    await annLeavesBobComes();
    slow.open();
    expect((await pending).invoiceId).toBe('inv-ann'); // A's own page may still use it
    await new Promise((r) => setTimeout(r, 50));
    expect({ id: currentInvoice.id, checkoutLink: currentInvoice.checkoutLink, remembered: localStorage.getItem('xg.currentInvoice') }).toEqual({
      id: null,
      checkoutLink: null,
      remembered: null,
    });
  });

  // The data areas' loads drop an answer that comes after a reset (resource.ts's ticket); the
  // actions drop theirs the same way: A's nickname change would put A's whole profile (e-mail,
  // phone) into B's "My profile", A's promo code A's promo wallet into B's wallet list (offered to
  // pay B's ads with), A's new ad into B's cart.
  it("actions of A's answered after A signed out and B signed in do not write A's data into B's screens", async () => {
    signedInAsAnn();
    const annPromo: Wallet = { id: 'w-ann-promo', walletType: 'XG-PROMO-WALLET', amountCents: 0, currency: 'USD' };
    const bobUsd: Wallet = { id: 'w-bob-usd', walletType: 'USD', amountCents: 500, currency: 'USD' };
    const bobAd = makeOwnerAd({ id: 'ad-bob', status: 'unpaid' });
    walletsStore.state.data = [{ id: 'w-ann-usd', walletType: 'USD', amountCents: 0, currency: 'USD' }, annPromo];
    const slow = gate();
    server.use(
      http.post('/api/add-promo-code-to-promo-wallet', async () => {
        await slow.opened;
        return apiJson('POST /api/add-promo-code-to-promo-wallet', { wallet: { ...annPromo, amountCents: 2000 } });
      }),
      http.post('/api/nickname-update', async () => {
        await slow.opened;
        return apiJson('POST /api/nickname-update', profileOf('u-ann', 'ann@example.com', 'ann_new', '+12125550100'));
      }),
      http.post('/api/post-ad', async () => {
        await slow.opened;
        return apiJson('POST /api/post-ad', { ad: makeOwnerAd({ id: 'ad-ann', status: 'unpaid' }) }, 201);
      }),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [bobUsd] })),
      http.get('/api/user-profile', () => apiJson('GET /api/user-profile', profileOf('u-bob', 'bob@example.com', 'bob', null))),
      http.get('/api/cart-ads-by-user', () => apiJson('GET /api/cart-ads-by-user', { pendingAds: [bobAd], total: 1, page: 1, pageSize: 20 })),
    );
    const pending = Promise.all([addPromoCode('WELCOME-ANN'), updateNickname('ann_new'), postAd({} as PostAdFields, [])]);
    await annLeavesBobComes();
    await Promise.all([walletsStore.load(), profileStore.load(), cartStore.load()]); // B opens the wallet, the profile, the cart
    slow.open();
    await pending;
    expect({
      wallets: walletsStore.state.data?.map((w) => w.id),
      profileEmail: profileStore.state.data?.email,
      cart: cartStore.state.data?.map((a) => a.id),
    }).toEqual({ wallets: ['w-bob-usd'], profileEmail: 'bob@example.com', cart: ['ad-bob'] });
  });

  // The socket is closed with 4001 (A signed out elsewhere) and by the time the session read
  // answers B has signed in in another tab: the tab must forget A's wallets and watched invoice,
  // or the dashboard, still mounted (the session is authenticated), shows them to B.
  it("a session read that finds another user than the tab's forgets the previous user's data", async () => {
    FakeWebSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeWebSocket);
    signedInAsAnn();
    walletsStore.state.data = [{ id: 'w-ann-usd', walletType: 'USD', amountCents: 123400, currency: 'USD' }];
    watchInvoice('inv-ann', 'https://btcpay.example/i/inv-ann');
    stopSocket = startSocket();
    await new Promise((r) => setTimeout(r, 0));
    FakeWebSocket.instances.at(-1)!.accept();
    server.use(http.get('/api/session', () => apiJson('GET /api/session', bob)));
    FakeWebSocket.instances.at(-1)!.drop(4001);
    await vi.waitFor(() => expect(sessionStore.session.id).toBe('u-bob'));
    expect({ wallets: walletsStore.state.data, invoice: currentInvoice.id, remembered: localStorage.getItem('xg.currentInvoice') }).toEqual({
      wallets: null,
      invoice: null,
      remembered: null,
    });
  });
});
