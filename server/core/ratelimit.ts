import type { Clock } from './clock.ts';
import { TooManyRequests } from './errors.ts';

/**
 * Fixed-window counters kept in memory (one process serves everything). Used for the precise
 * product limits: sign-in and register per IP and per account, posting per user, reports per IP.
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

  /** Counts one attempt for every key; throws 429 when any key is over its limit. */
  hit(keys: string[], message?: string): void {
    const now = this.clock.now().getTime();
    if (this.hits.size > 50_000) this.sweep(now);
    const over = keys.some((k) => {
      const w = this.hits.get(k);
      return w !== undefined && now - w.start < this.windowMs && w.count >= this.max;
    });
    if (over) throw new TooManyRequests(message);
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
