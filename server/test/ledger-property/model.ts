// The pure model of the money rules (PRODUCT §5–§7) that the ledger property test compares the
// system with. It never looks at the system's answer: for every operation it works out, from its
// own state only, which HTTP status the system must give (enough money? already paid? code used
// up? bumped a minute ago?) and what every balance, code and ad must look like afterwards.
// Plain JSON data, so it can be cloned for every serial order of a concurrent round.

export const DAY_MS = 24 * 60 * 60 * 1000;
export const BUMP_COOLDOWN_MS = 60_000;
export const REDEEM_LIMIT = 30; // promo code attempts per user per hour (wallets.service.ts)
export const REDEEM_WINDOW_MS = 60 * 60 * 1000;
export const LISTING_TYPES = ['female_esc', 'female_rub', 'shemale_esc'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];
export type PriceKind = 'ad' | 'bump';
export type WType = 'USD' | 'PROMO';
export type AdStatus = 'unpaid' | 'in_review' | 'approved' | 'rejected';

export interface MUser {
  id: string;
  cookie: string;
  staff: boolean;
  usdWalletId: string;
  /** Filled in by the test (sut.ts) once the system has created the wallet (the model only knows it exists). */
  promoWalletId: string | null;
  promoExists: boolean;
  usd: number;
  promo: number;
}

export interface MCode {
  id: string;
  code: string;
  amountCents: number;
  maxUses: number;
  uses: number;
  expiresAt: number | null;
  active: boolean;
  /** User indexes that redeemed it. */
  redeemedBy: number[];
}

export interface WalletKey {
  user: number;
  type: WType;
}

export interface MAd {
  id: string;
  owner: number;
  listingType: ListingType;
  status: AdStatus;
  priceCents: number | null;
  durationDays: number | null;
  paidWallet: WalletKey | null;
  bumpedAt: number | null;
  expiresAt: number | null;
}

export interface World {
  now: number;
  users: MUser[];
  codes: MCode[];
  ads: MAd[];
  /** `${kind}:${listingType}` → current price. */
  prices: Record<string, { id: string; priceCents: number; durationDays: number | null }>;
  /** Ledger rows written for this world's wallets. */
  ledgerRows: number;
  /** The redeem limiter is in memory, one per process: `${proc}:${user}` → the times of its attempts (a sliding window). */
  limiter: Record<string, number[]>;
}

/** A wallet as the request names it; null is an id that is no wallet at all. */
export type WalletRef = WalletKey | null;

export type Op =
  | { kind: 'redeem'; user: number; code: number | null; proc: string }
  | { kind: 'promoWallet'; user: number }
  | { kind: 'pay'; user: number; ad: number; wallet: WalletRef }
  | { kind: 'bump'; user: number; ad: number; wallet: WalletRef }
  | { kind: 'decide'; staff: number; ads: number[]; decision: 'approve' | 'reject' }
  | { kind: 'fund'; user: number; cents: number }
  | { kind: 'postAd'; user: number; listingType: ListingType }
  | { kind: 'setPrice'; priceKind: PriceKind; listingType: ListingType; cents: number }
  | { kind: 'editCode'; code: number; active: boolean; maxUses: number }
  | { kind: 'advance'; ms: number };

export interface Prediction {
  /** The one status the system must answer with. */
  status: number;
  /** Why (for failure messages): "short 1500 < 1499", "already paid" … */
  why: string;
  /** On success of pay / bump / redeem / promoWallet: the wallet's balance in the answer. */
  walletAfter?: number;
  /** On success of decide: the answer's `updated`. */
  updated?: number;
}

export const clone = (w: World): World => structuredClone(w);

export function balanceOf(w: World, k: WalletKey): number {
  const u = w.users[k.user];
  return k.type === 'USD' ? u.usd : u.promo;
}

function addTo(w: World, k: WalletKey, cents: number): void {
  const u = w.users[k.user];
  if (k.type === 'USD') u.usd += cents;
  else u.promo += cents;
  if (u.usd < 0 || u.promo < 0) throw new Error('model bug: negative balance');
  w.ledgerRows++;
}

/** The request's wallet is one of the user's own, existing wallets. */
function ownExisting(w: World, user: number, ref: WalletRef): ref is WalletKey {
  return ref !== null && ref.user === user && (ref.type === 'USD' || w.users[user].promoExists);
}

const priceOf = (w: World, kind: PriceKind, lt: ListingType) => w.prices[`${kind}:${lt}`];

/**
 * Applies op to w (mutating it) and returns what the system must answer. The order of the checks is
 * the order of the rules: whose ad, its state, whose wallet, then money.
 */
export function step(w: World, op: Op): Prediction {
  switch (op.kind) {
    case 'advance':
      w.now += op.ms;
      return { status: 200, why: 'clock' };
    case 'fund':
      addTo(w, { user: op.user, type: 'USD' }, op.cents);
      return { status: 200, why: 'credit' };
    case 'postAd':
      w.ads.push({
        id: '',
        owner: op.user,
        listingType: op.listingType,
        status: 'unpaid',
        priceCents: null,
        durationDays: null,
        paidWallet: null,
        bumpedAt: null,
        expiresAt: null,
      });
      return { status: 201, why: 'posted' };
    case 'setPrice': {
      priceOf(w, op.priceKind, op.listingType).priceCents = op.cents;
      return { status: 200, why: 'price set' };
    }
    case 'editCode': {
      const c = w.codes[op.code];
      if (op.maxUses < c.uses) return { status: 400, why: `maxUses ${op.maxUses} < uses ${c.uses}` };
      c.active = op.active;
      c.maxUses = op.maxUses;
      return { status: 200, why: 'code edited' };
    }
    case 'promoWallet': {
      const u = w.users[op.user];
      u.promoExists = true;
      return { status: 200, why: 'promo wallet', walletAfter: u.promo };
    }
    case 'redeem': {
      const key = `${op.proc}:${op.user}`;
      const recent = (w.limiter[key] ?? []).filter((t) => w.now - t < REDEEM_WINDOW_MS);
      if (recent.length >= REDEEM_LIMIT) return { status: 429, why: 'redeem limit' };
      w.limiter[key] = [...recent, w.now];
      if (op.code === null) return { status: 400, why: 'unknown code' };
      // The staff member made every code: its author may not redeem it (wallets.policy.ts).
      if (w.users[op.user].staff) return { status: 409, why: 'its author' };
      const c = w.codes[op.code];
      if (!c.active) return { status: 400, why: 'inactive' };
      if (c.expiresAt !== null && c.expiresAt <= w.now) return { status: 400, why: 'expired' };
      if (c.redeemedBy.includes(op.user)) return { status: 409, why: 'already used by this user' };
      if (c.uses >= c.maxUses) return { status: 409, why: `used up ${c.uses}/${c.maxUses}` };
      c.uses++;
      c.redeemedBy.push(op.user);
      w.users[op.user].promoExists = true;
      addTo(w, { user: op.user, type: 'PROMO' }, c.amountCents);
      return { status: 200, why: 'redeemed', walletAfter: w.users[op.user].promo };
    }
    case 'pay': {
      const ad = w.ads[op.ad];
      if (ad.owner !== op.user) return { status: 404, why: "someone else's ad" };
      if (ad.status !== 'unpaid') return { status: 409, why: `already paid (${ad.status})` };
      if (!ownExisting(w, op.user, op.wallet)) return { status: 404, why: "not the user's wallet" };
      const price = priceOf(w, 'ad', ad.listingType);
      const has = balanceOf(w, op.wallet);
      if (price.priceCents > has) return { status: 402, why: `short: ${has} < ${price.priceCents}` };
      ad.status = 'in_review';
      ad.priceCents = price.priceCents;
      ad.durationDays = price.durationDays ?? 30;
      ad.paidWallet = { ...op.wallet };
      if (price.priceCents > 0) addTo(w, op.wallet, -price.priceCents);
      return { status: 200, why: `paid ${price.priceCents} from ${op.wallet.type}`, walletAfter: balanceOf(w, op.wallet) };
    }
    case 'bump': {
      const ad = w.ads[op.ad];
      if (ad.owner !== op.user) return { status: 404, why: "someone else's ad" };
      if (ad.status !== 'approved' || (ad.expiresAt !== null && ad.expiresAt <= w.now)) return { status: 409, why: `not running (${ad.status})` };
      if (ad.bumpedAt !== null && w.now - ad.bumpedAt < BUMP_COOLDOWN_MS) return { status: 409, why: 'bumped < 60 s ago' };
      if (!ownExisting(w, op.user, op.wallet)) return { status: 404, why: "not the user's wallet" };
      const price = priceOf(w, 'bump', ad.listingType);
      const has = balanceOf(w, op.wallet);
      if (price.priceCents > has) return { status: 402, why: `short: ${has} < ${price.priceCents}` };
      if (price.priceCents > 0) addTo(w, op.wallet, -price.priceCents);
      ad.bumpedAt = w.now;
      return { status: 200, why: `bumped for ${price.priceCents} from ${op.wallet.type}`, walletAfter: balanceOf(w, op.wallet) };
    }
    case 'decide': {
      if (!w.users[op.staff].staff) return { status: 403, why: 'not staff' };
      const ids = [...new Set(op.ads)];
      // Staff never review their own ad: the whole batch is refused.
      if (ids.some((i) => w.ads[i].owner === op.staff)) return { status: 409, why: 'own ad in batch' };
      let updated = 0;
      let toPromo = false;
      for (const i of ids) {
        const ad = w.ads[i];
        if (ad.status !== 'in_review') continue;
        updated++;
        if (op.decision === 'approve') {
          ad.status = 'approved';
          ad.bumpedAt = w.now;
          ad.expiresAt = w.now + (ad.durationDays ?? 30) * DAY_MS;
        } else {
          ad.status = 'rejected';
          // The full price back to exactly the wallet that paid.
          if (ad.paidWallet && ad.priceCents) {
            addTo(w, ad.paidWallet, ad.priceCents);
            toPromo ||= ad.paidWallet.type === 'PROMO';
          }
        }
      }
      return { status: 200, why: `${op.decision} ${updated}${toPromo ? ' (refund to PROMO)' : ''}`, updated };
    }
  }
}

export function describeOp(w: World, op: Op): string {
  const wal = (r: WalletRef) => (r === null ? 'no-such-wallet' : `u${r.user}:${r.type}`);
  switch (op.kind) {
    case 'redeem':
      return `u${op.user} redeems ${op.code === null ? 'UNKNOWN' : (w.codes[op.code]?.code ?? `code#${op.code}`)} (proc ${op.proc})`;
    case 'promoWallet':
      return `u${op.user} creates promo wallet`;
    case 'pay':
      return `u${op.user} pays ad#${op.ad} (u${w.ads[op.ad]?.owner} ${w.ads[op.ad]?.listingType}) from ${wal(op.wallet)}`;
    case 'bump':
      return `u${op.user} bumps ad#${op.ad} (u${w.ads[op.ad]?.owner}) from ${wal(op.wallet)}`;
    case 'decide':
      return `u${op.staff} ${op.decision}s ads ${op.ads.map((a) => `#${a}`).join(',')}`;
    case 'fund':
      return `credit u${op.user}:USD +${op.cents}`;
    case 'postAd':
      return `u${op.user} posts a ${op.listingType} ad`;
    case 'setPrice':
      return `admin sets ${op.priceKind} price of ${op.listingType} to ${op.cents}`;
    case 'editCode':
      return `admin edits ${w.codes[op.code]?.code}: active=${op.active} maxUses=${op.maxUses}`;
    case 'advance':
      return `clock +${op.ms} ms`;
  }
}
