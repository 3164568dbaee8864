/** Time source injected everywhere, so tests can move time forward. */
export interface Clock {
  now(): Date;
  /**
   * Milliseconds from an arbitrary start that never go back (the wall clock does: NTP steps it):
   * for the windows kept in memory (rate limits, page views), which a step back would otherwise
   * stretch by its size.
   */
  elapsed(): number;
}

export const systemClock: Clock = { now: () => new Date(), elapsed: () => performance.now() };

/** A clock tests can set and advance; set() back in time is a step of the wall clock only, as NTP's. */
export class ManualClock implements Clock {
  private t: number;
  private mono = 0;
  constructor(start: Date | string = '2026-01-15T12:00:00.000Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  elapsed(): number {
    return this.mono;
  }
  advance(ms: number): void {
    this.t += ms;
    this.mono += Math.max(0, ms);
  }
  set(d: Date | string): void {
    const to = new Date(d).getTime();
    this.mono += Math.max(0, to - this.t);
    this.t = to;
  }
}

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;
