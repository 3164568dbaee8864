import fc from 'fast-check';
import { BUMP_COOLDOWN_MS, LISTING_TYPES, balanceOf, type ListingType, type Op, type PriceKind, type World, type WalletRef, type WType } from './model.ts';
import type { CodeSpec } from './sut.ts';

// What fast-check generates: operations named by small numbers, resolved against the model's
// current world (which ads exist, in which state, which wallets have ids) just before they run.
// Generation is biased towards the interesting cases (own ad in the right state, own wallet) so
// that most operations can succeed, and the rest try every wrong way.

/** Which of the actor's own wallets to pay from: any, one that cannot pay the price, one that can. */
type Aim = 'any' | 'short' | 'enough';

export type RawOp =
  | { t: 'redeem'; user: number; code: number }
  | { t: 'promoWallet'; user: number }
  | { t: 'pay' | 'bump'; user: number; ad: number; ownAd: boolean; inState: boolean; walletOther: number; walletType: WType; aim: Aim; bogus: boolean }
  | { t: 'decide'; byAdmin: boolean; user: number; ads: number[]; inReview: boolean; paidByPromo: boolean; withOwn: boolean; decision: 'approve' | 'reject' }
  | { t: 'fund'; user: number; cents: number }
  | { t: 'postAd'; user: number; lt: ListingType }
  | { t: 'setPrice'; kind: PriceKind; lt: ListingType; cents: number }
  | { t: 'editCode'; code: number; active: boolean; maxUsesDelta: number }
  | { t: 'advance'; ms: number };

const idx = fc.nat({ max: 1000 });
const lt = fc.constantFrom(...LISTING_TYPES);

/** true with odds of `yes` to `no`. */
const odds = (yes: number, no: number) => fc.oneof({ weight: yes, arbitrary: fc.constant(true) }, { weight: no, arbitrary: fc.constant(false) });

const payOrBump = (t: 'pay' | 'bump') =>
  fc.record({
    t: fc.constant(t),
    user: idx,
    ad: idx,
    ownAd: odds(5, 1),
    inState: odds(3, 1),
    // 0 = the user's own wallet; otherwise someone else's
    walletOther: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) }),
    // (a promo wallet not created yet becomes the USD one: see resolve)
    walletType: fc.constantFrom<WType>('USD', 'PROMO'),
    aim: fc.constantFrom<Aim>('any', 'any', 'short', 'enough', 'enough'),
    bogus: odds(1, 15),
  });

export const rawOpArb: fc.Arbitrary<RawOp> = fc.oneof(
  // Codes 0 and 1 more often than the rest, so that users meet codes they used before.
  { weight: 5, arbitrary: fc.record({ t: fc.constant('redeem' as const), user: idx, code: fc.oneof(fc.nat({ max: 1 }), idx) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('promoWallet' as const), user: idx }) },
  { weight: 5, arbitrary: payOrBump('pay') },
  { weight: 5, arbitrary: payOrBump('bump') },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('decide' as const),
      byAdmin: odds(12, 1),
      user: idx,
      ads: fc.array(idx, { minLength: 1, maxLength: 3 }),
      inReview: odds(4, 1),
      paidByPromo: odds(1, 1),
      withOwn: odds(1, 8),
      decision: fc.constantFrom<'approve' | 'reject'>('approve', 'reject'),
    }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('fund' as const), user: idx, cents: fc.constantFrom(1, 299, 300, 1500, 1800, 3000, 5000, 5000) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('postAd' as const), user: idx, lt }) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.record({ t: fc.constant('setPrice' as const), kind: fc.constant<PriceKind>('ad'), lt, cents: fc.constantFrom(0, 1, 700, 1500, 2600, 6000) }),
      fc.record({ t: fc.constant('setPrice' as const), kind: fc.constant<PriceKind>('bump'), lt, cents: fc.constantFrom(0, 50, 300, 900, 4000) }),
    ),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('editCode' as const), code: idx, active: fc.boolean(), maxUsesDelta: fc.integer({ min: -1, max: 2 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('advance' as const),
      ms: fc.constantFrom(1_000, 30_000, 59_999, 60_000, 61_000, 61_000, 10 * 60_000, 10 * 60_000, 2 * 3_600_000, 25 * 3_600_000),
    }),
  },
);

export const codeSpecArb: fc.Arbitrary<CodeSpec> = fc.record({
  amountCents: fc.constantFrom(1, 300, 1500, 2000, 5000, 5000),
  maxUses: fc.integer({ min: 1, max: 2 }),
  expiresIn: fc.constantFrom<number | null>(null, null, 5 * 60_000, 2 * 3_600_000, 3 * 24 * 3_600_000),
  active: odds(4, 1),
});

const pick = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

/** The reference a request can name: a wallet with a known id, or null (an id that is no wallet). */
export function walletRef(w: World, user: number, type: WType): WalletRef {
  if (type === 'USD') return { user, type };
  return w.users[user].promoWalletId ? { user, type } : null;
}

/** Turns a raw operation into one on this world; null when it cannot apply (no ads yet). */
export function resolve(w: World, r: RawOp): Op | null {
  const n = w.users.length;
  const admin = w.users.findIndex((u) => u.staff);
  const user = 'user' in r ? r.user % n : 0;
  switch (r.t) {
    case 'redeem':
      return { kind: 'redeem', user, code: r.code % (w.codes.length + 1) === w.codes.length ? null : r.code % (w.codes.length + 1), proc: 'main' };
    case 'promoWallet':
      return { kind: 'promoWallet', user };
    case 'pay':
    case 'bump': {
      // Mostly the owner acting on an ad in the state the operation needs; sometimes anyone, any ad.
      const all = w.ads.map((_, i) => i);
      // For a bump: approved and running, and preferably last bumped over a minute ago.
      const ready = (i: number) => {
        const a = w.ads[i];
        if (r.t === 'pay') return a.status === 'unpaid';
        return a.status === 'approved' && (a.expiresAt === null || a.expiresAt > w.now);
      };
      const cooled = all.filter((i) => ready(i) && w.now - (w.ads[i].bumpedAt ?? 0) >= BUMP_COOLDOWN_MS);
      const inState = r.t === 'bump' && cooled.length && r.ad % 3 !== 0 ? cooled : all.filter(ready);
      const ad = pick(r.inState && inState.length ? inState : all, r.ad);
      if (ad === undefined) return null;
      const actor = r.ownAd ? w.ads[ad].owner : user;
      // A promo wallet not created yet: the USD one instead (wrong wallets come from walletOther and bogus).
      const owner = (actor + r.walletOther) % n;
      let type: WType = w.users[owner].promoWalletId ? r.walletType : 'USD';
      if (r.aim !== 'any') {
        // Aim at either side of "enough money": the model still works out the answer on its own.
        const price = w.prices[`${r.t === 'pay' ? 'ad' : 'bump'}:${w.ads[ad].listingType}`].priceCents;
        const fits = (['USD', 'PROMO'] as const).filter((t) => {
          if (t === 'PROMO' && !w.users[owner].promoWalletId) return false;
          const has = balanceOf(w, { user: owner, type: t });
          return r.aim === 'short' ? has < price : has >= price;
        });
        if (fits.length && !fits.includes(type)) type = fits[0];
      }
      const wallet = r.bogus ? null : walletRef(w, owner, type);
      return { kind: r.t, user: actor, ad, wallet };
    }
    case 'decide': {
      const staff = r.byAdmin ? admin : user;
      const others = w.ads.map((_, i) => i).filter((i) => w.ads[i].owner !== staff);
      if (!others.length) return null;
      const inReview = others.filter((i) => w.ads[i].status === 'in_review');
      const promoPaid = inReview.filter((i) => w.ads[i].paidWallet?.type === 'PROMO'); // a reject must refund promo money to promo
      const from = r.inReview && r.paidByPromo && promoPaid.length ? promoPaid : r.inReview && inReview.length ? inReview : others;
      const ads = r.ads.map((a) => from[a % from.length]);
      const own = w.ads.findIndex((a) => a.owner === staff);
      if (r.withOwn && own >= 0) ads.push(own); // staff may not review their own ad
      return { kind: 'decide', staff, ads, decision: r.decision };
    }
    case 'fund':
      return { kind: 'fund', user, cents: r.cents };
    case 'postAd':
      return { kind: 'postAd', user, listingType: r.lt };
    case 'setPrice':
      return { kind: 'setPrice', priceKind: r.kind, listingType: r.lt, cents: r.cents };
    case 'editCode': {
      if (!w.codes.length) return null;
      const code = r.code % w.codes.length;
      return { kind: 'editCode', code, active: r.active, maxUses: Math.max(1, w.codes[code].uses + r.maxUsesDelta) };
    }
    case 'advance':
      return { kind: 'advance', ms: r.ms };
  }
}
