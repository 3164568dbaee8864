import { ServiceUnavailable, TooManyRequests } from './errors.ts';

/**
 * What the per-owner refusal asks the client to wait (its Retry-After): about the time one of the
 * owner's jobs takes to get a slot and run, since each that starts frees one of its places.
 */
const RETRY_AFTER_SECONDS = 5;

/** One owner's place in the queue: its jobs running, its jobs waiting, and when it last got a slot. */
interface Owner {
  running: number;
  waiting: (() => void)[];
  lastTurn: number;
}

/**
 * Runs at most `concurrency` jobs at once; the rest wait their turn. Image decoding runs on libuv's
 * thread pool, which also serves file and DNS work: unbounded, a burst of posts fills every thread
 * and holds several decoded pictures in memory at once. Waiting jobs are bounded too (each one
 * holds its upload in memory): past `maxWaiting` a job is refused with 503 instead of queued. So
 * that one account cannot take every waiting place (and have everyone else's uploads refused), an
 * owner's own jobs may wait at most `maxWaitingPerOwner` at a time: its next one is refused with 429
 * `upload.too_many_waiting`, and other owners' jobs keep queueing. Jobs without an owner (scripts,
 * not a user's upload) are bounded by `maxWaiting` alone.
 *
 * Turns go by owner (the account that sent the upload): a free slot goes to the waiting owner with
 * the fewest jobs running, among equals the one whose last turn is oldest, and each owner's own jobs go first
 * come first served. One account's burst of thirty uploads then delays another account's single
 * avatar by one job at most, instead of by all thirty. Jobs without an owner share one.
 */
export class WorkQueue {
  readonly concurrency: number;
  readonly maxWaiting: number;
  readonly maxWaitingPerOwner: number;
  private running = 0;
  private waitingCount = 0;
  private turns = 0;
  /** Owners with a job running or waiting. */
  private readonly owners = new Map<string, Owner>();
  /** The most jobs ever seen running at once (tests and operators read it; it never exceeds concurrency). */
  peak = 0;
  /** Jobs that have started running, in total. */
  started = 0;

  constructor(concurrency: number, maxWaiting = 500, maxWaitingPerOwner = maxWaiting) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`WorkQueue concurrency must be a positive integer, not ${concurrency}`);
    this.concurrency = concurrency;
    this.maxWaiting = maxWaiting;
    this.maxWaitingPerOwner = maxWaitingPerOwner;
  }

  /** Jobs running now. */
  get active(): number {
    return this.running;
  }

  /** Jobs waiting for a free slot. */
  get pending(): number {
    return this.waitingCount;
  }

  /** Runs `job` when a slot is free and it is `owner`'s turn; resolves or rejects with its outcome. */
  async run<T>(job: () => Promise<T>, owner = ''): Promise<T> {
    let o = this.owners.get(owner);
    if (!o) this.owners.set(owner, (o = { running: 0, waiting: [], lastTurn: -1 }));
    if (this.running >= this.concurrency) {
      // The owner's own excess first: theirs to wait out (429), not the server's being busy (503).
      // Its line is not empty here, so its entry stays.
      if (owner && o.waiting.length >= this.maxWaitingPerOwner) {
        throw new TooManyRequests('upload.too_many_waiting', { max: this.maxWaitingPerOwner, retryAfter: RETRY_AFTER_SECONDS });
      }
      if (this.waitingCount >= this.maxWaiting) {
        if (!o.running && !o.waiting.length) this.owners.delete(owner);
        throw new ServiceUnavailable('request.busy');
      }
      // The slot is handed over by the job that finishes (see nextTurn), so `running` never goes over.
      const waiting = o.waiting;
      this.waitingCount++;
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      this.running++;
      this.startTurn(o);
    }
    this.started++;
    if (this.running > this.peak) this.peak = this.running;
    try {
      return await job();
    } finally {
      o.running--;
      if (!o.running && !o.waiting.length) this.owners.delete(owner);
      const next = this.nextTurn();
      if (next) next();
      else this.running--;
    }
  }

  private startTurn(o: Owner): void {
    o.running++;
    o.lastTurn = this.turns++;
  }

  /**
   * Takes the next waiting job off its owner's line (counted running from here), or undefined when
   * none waits: the owner with the fewest jobs running, then the one whose last turn is oldest.
   */
  private nextTurn(): (() => void) | undefined {
    let chosen: Owner | undefined;
    for (const o of this.owners.values()) {
      if (!o.waiting.length) continue;
      if (!chosen || o.running < chosen.running || (o.running === chosen.running && o.lastTurn < chosen.lastTurn)) chosen = o;
    }
    if (!chosen) return undefined;
    this.waitingCount--;
    this.startTurn(chosen);
    return chosen.waiting.shift();
  }
}
