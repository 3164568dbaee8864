import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';
import { WindowLimiter } from './ratelimit.ts';
import { TooManyRequests } from './errors.ts';
import { createTestApp, makeUser, type TestContext } from '../test/harness.ts';

// A limit of N attempts in a window means N in ANY span of that length, however they are timed.

const MAX = 4;
const WINDOW = 1000;

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('WindowLimiter', () => {
  it('accepts exactly what a sliding window of its own model accepts, over random timings and keys', () => {
    for (let run = 0; run < 50; run++) {
      const rand = seeded(run + 1);
      const clock = new ManualClock();
      const limiter = new WindowLimiter(clock, MAX, WINDOW);
      const accepted = new Map<string, number[]>(); // the model: times accepted, per key
      for (let step = 0; step < 400; step++) {
        clock.advance(Math.floor(rand() * (rand() < 0.8 ? 60 : 900)));
        const now = clock.now().getTime();
        const keys = rand() < 0.3 ? ['a', 'b'] : [rand() < 0.5 ? 'a' : 'b'];
        const inWindow = (k: string) => (accepted.get(k) ?? []).filter((t) => now - t < WINDOW).length;
        const predicted = keys.every((k) => inWindow(k) < MAX);
        let took = true;
        try {
          limiter.hit(keys);
        } catch (err) {
          expect(err).toBeInstanceOf(TooManyRequests);
          took = false;
        }
        expect(took, `run ${run} step ${step} keys ${keys.join()}`).toBe(predicted);
        if (took) for (const k of keys) accepted.set(k, [...(accepted.get(k) ?? []), now]);
      }
      // and so no span of WINDOW ms holds more than MAX of a key's attempts
      for (const times of accepted.values()) {
        for (const t of times) expect(times.filter((u) => u >= t && u < t + WINDOW).length).toBeLessThanOrEqual(MAX);
      }
    }
  });

  it('refuses the burst at the edge a fixed window let through, and frees one attempt as each leaves the window', () => {
    const clock = new ManualClock();
    const limiter = new WindowLimiter(clock, MAX, WINDOW);
    limiter.hit(['k']); // t = 0
    clock.advance(WINDOW - 10);
    for (let i = 1; i < MAX; i++) limiter.hit(['k']); // t = 990: the limit is reached
    expect(() => limiter.hit(['k'])).toThrow(TooManyRequests);
    clock.advance(10); // t = 1000: the first attempt left the window, the other three have not
    limiter.hit(['k']);
    expect(() => limiter.hit(['k'])).toThrow(TooManyRequests);
    clock.advance(WINDOW - 10); // t = 1990: the three of t = 990 left
    for (let i = 0; i < MAX - 1; i++) limiter.hit(['k']);
    expect(() => limiter.hit(['k'])).toThrow(TooManyRequests);
  });
});

describe('WindowLimiter.msUntilFree', () => {
  // The window slides: a full key is free again when its oldest counted attempt leaves it.
  it('is 0 until a key is full, then the time until its oldest attempt leaves the window (the longest of several keys)', () => {
    const clock = new ManualClock();
    const limiter = new WindowLimiter(clock, 2, WINDOW);
    expect(limiter.msUntilFree(['a'])).toBe(0);
    limiter.count(['a']); // t = 0
    clock.advance(300);
    expect(limiter.msUntilFree(['a'])).toBe(0);
    limiter.count(['a', 'b']); // t = 300
    expect(limiter.msUntilFree(['a'])).toBe(700);
    clock.advance(200);
    limiter.count(['b']); // t = 500
    expect(limiter.msUntilFree(['a', 'b'])).toBe(800); // 'b' frees at 1300, 'a' at 1000
    expect(limiter.msUntilFree(['a'])).toBe(500);
    clock.advance(500); // t = 1000: the attempt of t = 0 left 'a'
    expect(limiter.msUntilFree(['a'])).toBe(0);
    expect(limiter.full(['a'])).toBe(false);
    limiter.count(['a']); // t = 1000: now its oldest is the one of t = 300
    expect(limiter.msUntilFree(['a'])).toBe(300);
  });
});

describe('the sign-in limit per IP', () => {
  let ctx: TestContext;
  afterEach(async () => ctx?.close());

  // PRODUCT §11: 10 attempts per 15 minutes per IP. A window that restarted whole let one guess at
  // t = 0, nine just before 15 minutes and ten just after: 19 guesses in two seconds.
  it('never takes more than 10 sign-in attempts from one IP within any 15 minutes', async () => {
    ctx = await createTestApp({ limits: { authAttemptsPerWindow: 10, authWindowMs: 15 * 60_000, authAccountPerHour: 1000 } });
    const victim = await makeUser(ctx, { status: 'approved' });
    const guess = () =>
      ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: victim.email, password: 'wrong guess number x' }, remoteAddress: '203.0.113.9' });
    const start = ctx.clock.now().getTime();
    const accepted: number[] = []; // ms since the first attempt, of each attempt not refused with 429
    const attempt = async () => {
      const res = await guess();
      if (res.statusCode !== 429) accepted.push(ctx.clock.now().getTime() - start);
      else expect(res.json().code).toBe('auth.too_many_sign_ins');
    };
    await attempt();
    ctx.clock.advance(15 * 60_000 - 1000);
    for (let i = 0; i < 9; i++) await attempt();
    ctx.clock.advance(1000);
    for (let i = 0; i < 10; i++) await attempt();
    const worst = Math.max(...accepted.map((t) => accepted.filter((u) => u >= t && u < t + 15 * 60_000).length));
    expect(worst).toBe(10);
    expect(accepted.length).toBe(11); // the nine of 14:59 still count at 15:00; the first left
  });
});

describe('WindowLimiter and the wall clock', () => {
  // Windows are measured in time that never goes back (Clock.elapsed): NTP stepping the wall
  // clock back an hour neither keeps a lockout for an extra hour nor ends one early.
  it('ends a window after its length of real time, across a step back of the wall clock', () => {
    const clock = new ManualClock();
    const limiter = new WindowLimiter(clock, 2, 15 * 60_000);
    limiter.count(['ip']);
    limiter.count(['ip']);
    expect(limiter.full(['ip'])).toBe(true);
    clock.advance(-60 * 60_000); // the step back
    expect(limiter.full(['ip'])).toBe(true); // no real time passed: still locked
    clock.advance(15 * 60_000); // a window of real time
    expect(limiter.full(['ip'])).toBe(false);
  });
});
