import { isIPv6 } from 'node:net';
import type { Clock } from './clock.ts';
import { TooManyRequests } from './errors.ts';
import type { ErrorCode, ErrorParams } from '../../contract/errors/index.ts';

/**
 * Fixed-window counters kept in memory (one process serves everything). Used for the precise
 * product limits: sign-in and register per IP and per account, posting per user, reports per IP.
 * Each path that needs a limit owns its own instance, so counters are never shared by accident
 * (e.g. registering does not use up sign-in attempts).
 */
export class WindowLimiter {
  private hits = new Map<string, { start: number; count: number }>();
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
    const now = this.clock.now().getTime();
    return keys.some((k) => {
      const w = this.hits.get(k);
      return w !== undefined && now - w.start < this.windowMs && w.count >= this.max;
    });
  }

  count(keys: string[]): void {
    const now = this.clock.now().getTime();
    if (this.hits.size > 50_000) this.sweep(now);
    for (const k of keys) {
      const w = this.hits.get(k);
      if (!w || now - w.start >= this.windowMs) this.hits.set(k, { start: now, count: 1 });
      else w.count++;
    }
  }

  private sweep(now: number): void {
    for (const [k, w] of this.hits) if (now - w.start >= this.windowMs) this.hits.delete(k);
  }
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
