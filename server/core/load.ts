import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** Whether the server's event loop is saturated (read on the hot path: a field, no work). */
export interface Load {
  readonly busy: boolean;
  close(): void;
}

/**
 * The event loop's utilization (the share of its time spent running JavaScript rather than
 * waiting for I/O: performance.eventLoopUtilization) over each window of `windowMs`, busy from
 * `threshold` on. Work that only saves bytes can give way while the loop is saturated: a public
 * answer that will not be kept is then sent as it is instead of compressed (AnswerCache).
 * Measured at 1M ads: 20 µs of brotli a first-asked list, a third of an uncached listing page's
 * time. When the loop has time to spare, everything is compressed as before.
 */
export class LoadGauge implements Load {
  private last: EventLoopUtilization = performance.eventLoopUtilization();
  private saturated = false;
  private readonly timer: NodeJS.Timeout;

  constructor(opts: { threshold?: number; windowMs?: number } = {}) {
    const threshold = opts.threshold ?? 0.9;
    this.timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.saturated = performance.eventLoopUtilization(now, this.last).utilization >= threshold;
      this.last = now;
    }, opts.windowMs ?? 250);
    this.timer.unref();
  }

  get busy(): boolean {
    return this.saturated;
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** A load that is never busy (tests, whose own work would otherwise switch what they assert on). */
export const NEVER_BUSY: Load = { busy: false, close() {} };
