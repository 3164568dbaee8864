import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../app.ts';
import type { Op, Prediction, World, WalletRef } from './model.ts';

// The HTTP side of the ledger property test: the request a browser would send for each model
// operation, and whether the answer is the one the model predicted. Nothing here decides what
// the answer should be: that is model.ts alone.

export const UNKNOWN_CODE = 'NO-SUCH-CODE-0';
export const NO_WALLET = 'no-such-wallet';
export const REJECT_REASON = 'Photos do not match the description';

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  cookie: string;
  payload?: Record<string, unknown>;
}

export interface Answer {
  status: number;
  body: unknown;
}

export const adminOf = (w: World): number => w.users.findIndex((u) => u.staff);

export function walletIdOf(w: World, ref: WalletRef): string {
  if (ref === null) return NO_WALLET;
  const u = w.users[ref.user];
  const id = ref.type === 'USD' ? u.usdWalletId : u.promoWalletId;
  if (!id) throw new Error(`http: wallet u${ref.user}:${ref.type} has no known id (resolve refs before sending)`);
  return id;
}

export const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The request a browser would send for op (null for what is not a request: credits, clock, posts). */
export function httpCall(w: World, op: Op): HttpCall | null {
  const cookieOf = (i: number) => w.users[i].cookie;
  switch (op.kind) {
    case 'redeem':
      return {
        method: 'POST',
        url: '/api/add-promo-code-to-promo-wallet',
        cookie: cookieOf(op.user),
        payload: { code: op.code === null ? UNKNOWN_CODE : w.codes[op.code].code },
      };
    case 'promoWallet':
      return { method: 'POST', url: '/api/create-promo-wallet', cookie: cookieOf(op.user), payload: {} };
    case 'pay':
      return { method: 'PUT', url: `/api/ad-payment-in-cart/${w.ads[op.ad].id}`, cookie: cookieOf(op.user), payload: { walletId: walletIdOf(w, op.wallet) } };
    case 'bump':
      return { method: 'PUT', url: `/api/bump-ad/${w.ads[op.ad].id}`, cookie: cookieOf(op.user), payload: { walletId: walletIdOf(w, op.wallet) } };
    case 'decide':
      return {
        method: 'POST',
        url: '/api/admin/approve-pending-ads',
        cookie: cookieOf(op.staff),
        payload: { adIds: op.ads.map((i) => w.ads[i].id), decision: op.decision, ...(op.decision === 'reject' ? { reason: REJECT_REASON } : {}) },
      };
    case 'setPrice':
      return {
        method: 'POST',
        url: '/api/admin/set-price-by-id',
        cookie: cookieOf(adminOf(w)),
        payload: { id: w.prices[`${op.priceKind}:${op.listingType}`].id, priceCents: op.cents },
      };
    case 'editCode': {
      const c = w.codes[op.code];
      return {
        method: 'POST',
        url: '/api/admin/set-promo-code-by-id',
        cookie: cookieOf(adminOf(w)),
        payload: { id: c.id, code: c.code, amountCents: c.amountCents, maxUses: op.maxUses, expiresAt: isoOrNull(c.expiresAt), active: op.active },
      };
    }
    case 'fund':
    case 'postAd':
    case 'advance':
      return null;
  }
}

/** Sends a call as our own client in a browser would (same-origin), through the app's inject. */
export async function send(app: App, call: HttpCall): Promise<Answer> {
  const res: LightMyRequestResponse = await app.inject({
    method: call.method,
    url: call.url,
    headers: { cookie: call.cookie, 'sec-fetch-site': 'same-origin' },
    ...(call.payload ? { payload: call.payload } : {}),
  });
  let body: unknown = res.body;
  try {
    body = res.json();
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body };
}

/** Whether a real answer says what the model predicted (status, and the wallet or count it returns). */
export function answerMatches(p: Prediction, a: Answer): boolean {
  if (a.status !== p.status) return false;
  const b = a.body as { wallet?: { amountCents?: number }; updated?: number };
  if (p.walletAfter !== undefined && b?.wallet?.amountCents !== p.walletAfter) return false;
  if (p.updated !== undefined && b?.updated !== p.updated) return false;
  return true;
}
