import fc from 'fast-check';
import type { Op, World } from './model.ts';
import { walletRef } from './ops.ts';
import { WORKERS } from './pool.ts';

// What races in the concurrent part: a small world (users A, B, C and an admin; A's ads #0 unpaid,
// #1 in review, #2 live; B's ad #3 unpaid; two promo codes) where everyone wants the same ad, code
// and money at the same moment.

/** One racing operation, named by role: A is user 0, B user 1, C user 2, the admin user 3. */
export type Racer =
  | { t: 'pay'; who: 0 | 1; ad: 0 | 3; wallet: 'own-usd' | 'own-promo' | 'other-usd' }
  | { t: 'bump'; ad: 2 | 0; wallet: 'own-usd' | 'own-promo' }
  | { t: 'redeem'; who: 0 | 1 | 2; code: 0 | 1 }
  | { t: 'decide'; ads: number[]; decision: 'approve' | 'reject' }
  | { t: 'promoWallet'; who: 0 | 1 };

export const racerArb: fc.Arbitrary<Racer> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('pay' as const),
      who: fc.constantFrom<0 | 1>(0, 0, 0, 1),
      ad: fc.constantFrom<0 | 3>(0, 0, 0, 3),
      wallet: fc.constantFrom('own-usd', 'own-usd', 'own-promo', 'other-usd') as fc.Arbitrary<'own-usd' | 'own-promo' | 'other-usd'>,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('bump' as const),
      ad: fc.constantFrom<2 | 0>(2, 2, 2, 0),
      wallet: fc.constantFrom<'own-usd' | 'own-promo'>('own-usd', 'own-usd', 'own-promo'),
    }),
  },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('redeem' as const), who: fc.constantFrom<0 | 1 | 2>(0, 1, 2), code: fc.constantFrom<0 | 1>(0, 1) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('decide' as const),
      ads: fc.constantFrom<number[]>([1], [1], [1, 0], [0, 1, 3]),
      decision: fc.constantFrom<'approve' | 'reject'>('approve', 'reject'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('promoWallet' as const), who: fc.constantFrom<0 | 1>(0, 1) }) },
);

export function racerOp(w: World, r: Racer, proc: string): Op {
  switch (r.t) {
    case 'pay': {
      const wallet =
        r.wallet === 'own-usd' ? walletRef(w, r.who, 'USD') : r.wallet === 'own-promo' ? walletRef(w, r.who, 'PROMO') : walletRef(w, 1 - r.who, 'USD');
      return { kind: 'pay', user: r.who, ad: r.ad, wallet };
    }
    case 'bump':
      return { kind: 'bump', user: 0, ad: r.ad, wallet: walletRef(w, 0, r.wallet === 'own-usd' ? 'USD' : 'PROMO') };
    case 'redeem':
      return { kind: 'redeem', user: r.who, code: r.code, proc };
    case 'decide':
      return { kind: 'decide', staff: 3, ads: r.ads, decision: r.decision };
    case 'promoWallet':
      return { kind: 'promoWallet', user: r.who };
  }
}

export const scenarioArb = fc.record({
  fundA: fc.constantFrom(0, 300, 1500, 1800, 3000),
  fundB: fc.constantFrom(0, 1500),
  code0: fc.record({ amountCents: fc.constantFrom(300, 1500), maxUses: fc.integer({ min: 1, max: 3 }) }),
  code1: fc.record({ amountCents: fc.constantFrom(300, 1500), maxUses: fc.integer({ min: 1, max: 2 }) }),
  aHasPromo: fc.boolean(),
  cUsedCode0: fc.boolean(),
  rounds: fc.array(
    fc.oneof(
      // the same operations from both workers at once: a double click that reached two servers
      fc.record({
        advance: fc.constantFrom(0, 61_000),
        twin: fc.constant(true),
        racers: fc.array(racerArb, { minLength: 1, maxLength: 3 }),
        workers: fc.constant<number[]>([]),
      }),
      // different operations over the same ads, codes and wallets, spread over the workers
      fc.record({
        advance: fc.constantFrom(0, 61_000),
        twin: fc.constant(false),
        racers: fc.array(racerArb, { minLength: 3, maxLength: 6 }),
        workers: fc.array(fc.nat({ max: WORKERS - 1 }), { minLength: 6, maxLength: 6 }),
      }),
    ),
    { minLength: 1, maxLength: 3 },
  ),
});

/** Which worker sends which racer: twins go to every worker; otherwise as generated, each worker getting one at least. */
export function deal(round: { twin: boolean; racers: Racer[]; workers: number[] }): { worker: number; racer: Racer }[] {
  if (round.twin) return Array.from({ length: WORKERS }, (_, k) => round.racers.map((racer) => ({ worker: k, racer }))).flat();
  const dealt = round.racers.map((racer, i) => ({ worker: round.workers[i], racer }));
  for (let k = 0; k < WORKERS; k++) if (!dealt.some((d) => d.worker === k)) dealt[k % dealt.length].worker = k;
  return dealt;
}
