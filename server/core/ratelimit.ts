import { isIPv6 } from 'node:net';
import type { Clock } from './clock.ts';
import { TooManyRequests } from './errors.ts';
import type { ErrorCode, ErrorParams } from '../../contract/errors/index.ts';

/**
 * Sliding-window limits kept in memory (one process serves everything): at most `max` attempts a
 * key within any `windowMs`, however they are timed (a fixed window that restarts whole let twice
 * the limit through around its edge: 10 sign-in guesses just before it and 10 just after). Each key
 * keeps the times of its attempts still inside the window, at most `max` of them. Used for the
 * precise product limits: sign-in and register per IP and per account, resets, promo codes, posting
 * per user, reports per IP. Each path that needs a limit owns its own instance, so counters are
 * never shared by accident (e.g. registering does not use up sign-in attempts).
 */
export class WindowLimiter {
  /** Per key, the times of its attempts, oldest first. */
  private hits = new Map<string, number[]>();
  private readonly clock: Clock;
  private readonly max: number;
  private readonly windowMs: number;
  constructor(clock: Clock, max: number, windowMs: number) {
    this.clock = clock;
    this.max = max;
    this.windowMs = windowMs;
  }

  /** Counts one attempt for every key; throws 429 when any key is over its limit (then nothing is counted). */
  hit(keys: string[], code?: ErrorCode, params?: ErrorParams): void {
    if (this.full(keys)) throw new TooManyRequests(code, params);
    this.count(keys);
  }

  /**
   * Is any key at its limit? With count(), lets a caller check several limiters first and count
   * in all of them only when none is full (synchronously, so no request slips in between).
   */
  full(keys: string[]): boolean {
    const now = this.clock.elapsed(); // never back: a step of the wall clock neither stretches nor ends a window
    return keys.some((k) => {
      const times = this.hits.get(k);
      return times !== undefined && this.recent(times, now) >= this.max;
    });
  }

  /**
   * How long until every key has a free place again (0 when none is full): a full key's oldest
   * counted attempt leaves the window then. For a refusal to say the real wait, since the window
   * slides (it is rarely its whole length).
   */
  msUntilFree(keys: string[]): number {
    const now = this.clock.elapsed();
    let wait = 0;
    for (const k of keys) {
      const times = this.hits.get(k);
      if (times === undefined || this.recent(times, now) < this.max) continue;
      wait = Math.max(wait, times[times.length - this.max] + this.windowMs - now);
    }
    return wait;
  }

  /** Counts one attempt for every key; returns its time, for uncount(). */
  count(keys: string[]): number {
    const now = this.clock.elapsed();
    if (this.hits.size > 50_000) this.sweep(now);
    for (const k of keys) {
      const times = this.hits.get(k);
      if (!times) this.hits.set(k, [now]);
      else {
        times.push(now);
        if (times.length > this.max) times.splice(0, times.length - this.max); // the older ones no longer decide anything
      }
    }
    return now;
  }

  /**
   * Takes back one attempt counted at `at` (Clock.elapsed(), as count() returned it) for every key:
   * for a caller that counts before an outcome it awaits (so that requests in flight at once are
   * all counted), and that outcome turned out to cost nothing.
   */
  uncount(keys: string[], at: number): void {
    for (const k of keys) {
      const times = this.hits.get(k);
      const i = times ? times.lastIndexOf(at) : -1;
      if (i >= 0) times!.splice(i, 1);
    }
  }

  /** Drops the key's attempts that left the window; returns how many are left. */
  private recent(times: number[], now: number): number {
    let gone = 0;
    while (gone < times.length && now - times[gone] >= this.windowMs) gone++;
    if (gone) times.splice(0, gone);
    return times.length;
  }

  private sweep(now: number): void {
    for (const [k, times] of this.hits) if (!this.recent(times, now)) this.hits.delete(k);
  }
}

/** A wait as a refusal states it: whole minutes, rounded up, at least 1. */
export function waitMinutes(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

/**
 * The key for per-IP limits. An IPv4 address as is (IPv4-mapped IPv6 unwrapped); an IPv6 address
 * by its /64, because one subscriber usually holds a whole /64 and could otherwise rotate through
 * 2^64 addresses, each with a fresh limit.
 */
export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const addr = ip.split('%')[0].toLowerCase();
  const groups = (part: string) => (part ? part.split(':') : []);
  const [head, tail] = addr.split('::') as [string, string | undefined];
  const h = groups(head);
  let all = h;
  if (tail !== undefined) {
    const t = groups(tail);
    const tailWidth = t.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0); // an embedded IPv4 fills two groups
    all = [...h, ...Array<string>(Math.max(0, 8 - h.length - tailWidth)).fill('0'), ...t];
  }
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
