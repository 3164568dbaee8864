import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './harness.ts';
import { jpegWithGps } from '../modules/ads/ads.testkit.ts';
import { clone, describeOp, type Op, type Prediction, type World } from './ledger-property/model.ts';
import { answerMatches, httpCall, type Answer } from './ledger-property/http.ts';
import { ledgerInvariants, learnPromoWallets, modelView, systemView, worldLedgerMismatches } from './ledger-property/views.ts';
import { runOne, Sut } from './ledger-property/sut.ts';
import { codeSpecArb, rawOpArb, resolve } from './ledger-property/ops.ts';
import { deal, racerOp, scenarioArb } from './ledger-property/race.ts';
import { fire, startPool, stopPool, WORKERS, type Pool } from './ledger-property/pool.ts';
import { explain, possibleOutcomes } from './ledger-property/serial.ts';

// The money rules as a model that predicts (property/model.ts): for every operation it computes,
// from its own state alone, the answer the system must give and every balance, code use and ad
// state afterwards; the system is then asked and compared. Money enters only through promo codes
// an admin creates through the API and ledger credits (as a settled invoice would make).
//
// 1. Alone: random operations of several users on one in-memory database, compared after each.
// 2. Together: the same operations sent at the same instant from two worker processes, each with
//    its own app and SQLite connection on one database FILE. They are right when some serial order
//    of them, through the model, predicts every answer and the state found afterwards.
//
// Replay a failure with LEDGER_PROPERTY_SEED=<seed> (fast-check prints the seed and path);
// LEDGER_PROPERTY_RUNS=<n> runs more.

const SEED = process.env.LEDGER_PROPERTY_SEED ? Number(process.env.LEDGER_PROPERTY_SEED) : undefined;
const RUNS = process.env.LEDGER_PROPERTY_RUNS ? Number(process.env.LEDGER_PROPERTY_RUNS) : undefined;
const fcOptions = (numRuns: number) => ({ numRuns: RUNS ?? numRuns, seed: SEED });
/** Time for a test of `numRuns` runs (more when LEDGER_PROPERTY_RUNS asks for more). */
const timeout = (numRuns: number, msPerRun: number) => Math.max(numRuns, RUNS ?? 0) * msPerRun + 30_000;

let photo: Buffer;
beforeAll(async () => {
  photo = await jpegWithGps();
});

/**
 * The system's state is the model's: every balance, code and ad of the world, and the world's
 * number of ledger rows; every balance is the sum of its entries and not negative. `everything`
 * adds the invariants of the whole database (slower as it grows: once per run).
 */
async function expectSameState(sut: Sut, w: World, history: string[], everything = false): Promise<void> {
  const view = await systemView(sut.db, w);
  expect(view, `state after:\n${history.join('\n')}`).toEqual(modelView(w));
  expect(await worldLedgerMismatches(sut.db, w), `after:\n${history.join('\n')}`).toEqual([]);
  if (everything) expect(await ledgerInvariants(sut.db), `after:\n${history.join('\n')}`).toEqual([]);
}

/** Runs op alone: predicts, asks the system, compares the answer and the whole state. */
async function alone(sut: Sut, w: World, op: Op, history: string[]): Promise<Prediction> {
  const label = describeOp(w, op);
  const { prediction, answer } = await runOne(sut, w, op);
  history.push(`${label} → expected ${prediction.status} (${prediction.why}), got ${answer.status}`);
  if (!answerMatches(prediction, answer)) {
    throw new Error(
      `wrong answer to "${label}": expected ${prediction.status} (${prediction.why})${prediction.walletAfter !== undefined ? ` with wallet ${prediction.walletAfter}` : ''}${prediction.updated !== undefined ? ` updated ${prediction.updated}` : ''}, got ${answer.status} ${JSON.stringify(answer.body)}\n${history.join('\n')}`,
    );
  }
  await expectSameState(sut, w, history);
  return prediction;
}

describe('ledger property: the model predicts every answer and balance', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx?.close());

  it('operations one at a time', { timeout: timeout(40, 1_000) }, async () => {
    // One database for all runs (a fresh app per run costs more than the run); each run has its
    // own users, codes and ads, and puts the prices back first, so it starts from the same world.
    const sut = new Sut(ctx.app, ctx.clock, photo);
    const outcomes = new Map<string, number>(); // which predictions came up, to show the runs reach them
    await fc.assert(
      fc.asyncProperty(
        fc.array(codeSpecArb, { minLength: 2, maxLength: 4 }),
        fc.tuple(...[0, 1, 2, 3].map(() => fc.constantFrom(0, 100, 300, 1500, 3000, 5000))),
        fc.tuple(...[0, 1, 2, 3].map(() => fc.boolean())),
        fc.constantFrom(300, 300, 2500, 6000),
        fc.array(rawOpArb, { minLength: 20, maxLength: 50 }),
        async (codes, initial, promoAtStart, liveBumpPrice, raws) => {
          // Code 0 is a generous one that some users redeem first, so that promo money pays (and is refunded) often.
          const w = await sut.newWorld(3, [{ amountCents: 5000, maxUses: 4, expiresIn: null, active: true }, ...codes]);
          await sut.resetPrices(w);
          await sut.setAdDuration(w, 'shemale_esc', 1); // an ad that runs out within a run
          const history: string[] = [];
          await alone(sut, w, { kind: 'postAd', user: 0, listingType: 'female_esc' }, history);
          await alone(sut, w, { kind: 'postAd', user: 1, listingType: 'shemale_esc' }, history);
          await alone(sut, w, { kind: 'postAd', user: 3, listingType: 'female_rub' }, history); // the admin's own
          // One ad live from the start (it runs for a day), so bumps have something to race for.
          await alone(sut, w, { kind: 'fund', user: 1, cents: w.prices['ad:shemale_esc'].priceCents }, history);
          await alone(sut, w, { kind: 'pay', user: 1, ad: 1, wallet: { user: 1, type: 'USD' } }, history);
          await alone(sut, w, { kind: 'decide', staff: 3, ads: [1], decision: 'approve' }, history);
          await alone(sut, w, { kind: 'setPrice', priceKind: 'bump', listingType: 'shemale_esc', cents: liveBumpPrice }, history);
          for (const [user, cents] of initial.entries()) if (cents) await alone(sut, w, { kind: 'fund', user, cents }, history);
          for (const [user, yes] of promoAtStart.entries())
            if (yes || user === 2) await alone(sut, w, { kind: 'redeem', user, code: 0, proc: 'main' }, history);
          // An ad paid with promo money, waiting for review: a rejection must refund it to the promo wallet.
          await alone(sut, w, { kind: 'postAd', user: 2, listingType: 'female_rub' }, history);
          await alone(sut, w, { kind: 'pay', user: 2, ad: 3, wallet: { user: 2, type: 'PROMO' } }, history);
          for (const raw of raws) {
            const op = resolve(w, raw);
            if (!op) continue;
            const p = await alone(sut, w, op, history);
            const key = `${op.kind} ${p.status} (${p.why
              .replace(/[\d:<>/]+/g, '')
              .replace(/\s+/g, ' ')
              .trim()})`;
            outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          }
          await expectSameState(sut, w, history, true);
        },
      ),
      fcOptions(40),
    );
    if (process.env.LEDGER_PROPERTY_STATS)
      console.info(
        [...outcomes]
          .sort()
          .map(([k, n]) => `${n}\t${k}`)
          .join('\n'),
      );
    // The generator must reach the cases that matter, or the property proves little.
    const seen = [...outcomes.keys()].join('\n');
    for (const must of [
      /pay 200 \(paid from USD/,
      /pay 200 \(paid from PROMO/,
      /pay 402/,
      /pay 409/,
      /pay 404/,
      /bump 200 \(bumped for from USD/,
      /bump 200 \(bumped for from PROMO/,
      /bump 402/,
      /bump 409 \(bumped/,
      /bump 409 \(not running/,
      /redeem 200/,
      /redeem 400 \(inactive/,
      /redeem 400 \(expired/,
      /redeem 400 \(unknown/,
      /redeem 409 \(already used/,
      /redeem 409 \(used up/,
      /decide 200 \(reject/,
      /decide 200 \(reject \(refund to PROMO\)/,
      /decide 200 \(approve/,
      /decide 409/,
    ]) {
      expect(seen, `never generated: ${must}`).toMatch(must);
    }
  });
});

// ---------------------------------------------------------------------------------------------

/** A worker's log line of a 5xx as its cause: the error's code and message, and where in our code. */
function cause(line: string): string {
  try {
    const { err } = JSON.parse(line) as { err?: { type?: string; code?: string; message?: string; stack?: string } };
    const where = err?.stack
      ?.split('\n')
      .filter((l) => l.includes('/server/') && !l.includes('node_modules'))
      .slice(0, 3)
      .map((l) => l.trim());
    return `  ${err?.type} ${err?.code}: ${err?.message}${where?.length ? `\n    ${where.join('\n    ')}` : ''}`;
  } catch {
    return `  ${line}`;
  }
}

/** An answer in a line: status, and what the model compares (wallet balance, count) or the refusal. */
function brief(a: Answer): string {
  const b = a.body as { wallet?: { amountCents: number }; updated?: number; message?: string } | null;
  return `${a.status}${b?.wallet ? ` wallet=${b.wallet.amountCents}` : ''}${b?.updated !== undefined ? ` updated=${b.updated}` : ''}${b?.message ? ` "${b.message}"` : ''}`;
}

describe('ledger property: two processes on one database file', () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = await startPool();
  }, 30_000);
  afterAll(async () => {
    if (pool) await stopPool(pool);
  });

  it('every answer and the state afterwards are those of some serial order; the ledger holds', { timeout: timeout(40, 1_500) }, async () => {
    const sut = new Sut(pool.main.app, pool.main.clock, photo);
    let rounds = 0;
    let overlapping = 0;
    let successes = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (sc) => {
        // The world of this scenario: users A, B, C and an admin, four ads of A and B in every
        // state, two codes; built one step at a time and checked against the model like part 1.
        const w = await sut.newWorld(3, [
          { ...sc.code0, expiresIn: null, active: true },
          { ...sc.code1, expiresIn: null, active: true },
        ]);
        const history: string[] = [];
        const setup: Op[] = [
          { kind: 'fund', user: 0, cents: sc.fundA + w.prices['ad:female_rub'].priceCents + w.prices['ad:shemale_esc'].priceCents },
          ...(sc.fundB ? [{ kind: 'fund', user: 1, cents: sc.fundB } as Op] : []),
          { kind: 'postAd', user: 0, listingType: 'female_esc' }, // #0 unpaid, in A's cart
          { kind: 'postAd', user: 0, listingType: 'female_rub' }, // #1 paid, in review
          { kind: 'postAd', user: 0, listingType: 'shemale_esc' }, // #2 live
          { kind: 'postAd', user: 1, listingType: 'female_esc' }, // #3 unpaid, in B's cart
          { kind: 'pay', user: 0, ad: 1, wallet: { user: 0, type: 'USD' } },
          { kind: 'pay', user: 0, ad: 2, wallet: { user: 0, type: 'USD' } },
          { kind: 'decide', staff: 3, ads: [2], decision: 'approve' },
          ...(sc.aHasPromo ? [{ kind: 'redeem', user: 0, code: 1, proc: 'main' } as Op] : []),
          ...(sc.cUsedCode0 ? [{ kind: 'redeem', user: 2, code: 0, proc: 'main' } as Op] : []),
        ];
        for (const op of setup) await alone(sut, w, op, history);

        for (const round of sc.rounds) {
          if (round.advance) await alone(sut, w, { kind: 'advance', ms: round.advance }, history);
          const dealt = deal(round);
          const ops = dealt.map((d) => racerOp(w, d.racer, `w${d.worker}`));
          const calls = ops.map((op) => httpCall(w, op)!);
          const byWorker: number[][] = Array.from({ length: WORKERS }, () => []);
          dealt.forEach((d, i) => byWorker[d.worker].push(i));
          const done = await fire(
            pool,
            w.now,
            byWorker.map((idx) => idx.map((i) => calls[i])),
          );
          const answers: Answer[] = [];
          byWorker.forEach((idx, k) => idx.forEach((i, j) => (answers[i] = done[k].answers[j])));

          rounds++;
          // Every worker was busy at one same instant: the last to start began before the first to finish ended.
          const starts = done.map((d) => Math.min(...d.spans.map((s) => s[0])));
          const ends = done.map((d) => Math.max(...d.spans.map((s) => s[1])));
          if (Math.max(...starts) < Math.min(...ends)) overlapping++;
          successes += answers.filter((a) => a.status < 300).length;

          const observed = await systemView(sut.db, w);
          const found = explain(w, ops, answers, observed);
          if (!found) {
            const lines = ops.map((op, i) => `  [w${dealt[i].worker}] ${describeOp(w, op)} → ${brief(answers[i])}`);
            const serial = possibleOutcomes(clone(w), ops)
              .slice(0, 12)
              .map((o) => `  order ${o.order.join(',')}: ${o.statuses.join(', ')}`);
            throw new Error(
              `no serial order explains this round:\n${lines.join('\n')}\nserial orders would answer (by op):\n${serial.join('\n')}\n` +
                `5xx causes:\n${
                  done
                    .flatMap((d) => d.errors)
                    .map(cause)
                    .join('\n') || '  none'
                }\n` +
                `model before: ${JSON.stringify(modelView(w))}\nfound: ${JSON.stringify(observed)}\nsetup:\n${history.join('\n')}`,
            );
          }
          Object.assign(w, found.world);
          history.push(`round: ${found.order.map((i) => `${describeOp(w, ops[i])} → ${answers[i].status}`).join('; ')}`);
          await learnPromoWallets(sut.db, w);
          expect(await ledgerInvariants(sut.db), `after:\n${history.join('\n')}`).toEqual([]);
        }
        await expectSameState(sut, w, history, true);
      }),
      fcOptions(40),
    );
    // The operations did run at the same time in both processes (most rounds overlap; a loaded CI
    // machine may serialize some), and enough of them did something.
    console.info(`ledger property: ${rounds} concurrent rounds, ${overlapping} overlapping in time, ${successes} successful operations`);
    expect(overlapping).toBeGreaterThanOrEqual(Math.ceil(rounds / 4));
    expect(successes).toBeGreaterThanOrEqual(rounds / 2);
    expect(await ledgerInvariants(pool.main.app.deps.db)).toEqual([]);
  });
});
