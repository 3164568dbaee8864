import { ServiceUnavailable } from './errors.ts';

/**
 * Runs at most `concurrency` jobs at once; the rest wait their turn, first come first served.
 * Image decoding runs on libuv's thread pool, which also serves file and DNS work: unbounded, a
 * burst of posts fills every thread and holds several decoded pictures in memory at once. Waiting
 * jobs are bounded too (each one holds its upload in memory): past `maxWaiting` a job is refused
 * with 503 instead of queued.
 */
export class WorkQueue {
  readonly concurrency: number;
  readonly maxWaiting: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** The most jobs ever seen running at once (tests and operators read it; it never exceeds concurrency). */
  peak = 0;
  /** Jobs that have started running, in total. */
  started = 0;

  constructor(concurrency: number, maxWaiting = 500) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`WorkQueue concurrency must be a positive integer, not ${concurrency}`);
    this.concurrency = concurrency;
    this.maxWaiting = maxWaiting;
  }

  /** Jobs running now. */
  get active(): number {
    return this.running;
  }

  /** Jobs waiting for a free slot. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Runs `job` when a slot is free; resolves or rejects with its outcome. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) throw new ServiceUnavailable('request.busy');
      // The slot is handed over by the job that finishes (see below), so `running` never goes over.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    this.started++;
    if (this.running > this.peak) this.peak = this.running;
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
