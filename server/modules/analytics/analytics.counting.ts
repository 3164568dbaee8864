import type { Clock } from '../../core/clock.ts';

/**
 * Which page-view beacons count as a visitor's view. The figures an owner sees on my ads are what
 * they pay for and what bumping buys, so they count people looking, not requests: a reload, a
 * script posting the beacon in a loop, a crawler rendering the page, or the owner checking their
 * own ad are not views.
 */

/** A viewer's view of one path counts once within this long (reloads and back-and-forth inside it are the same visit). */
export const VIEW_WINDOW_MS = 30 * 60_000;

/**
 * At most this many (viewer, path) pairs are remembered (~20 MB at the longest paths). Past it the
 * oldest are forgotten first: under a flood of distinct viewers a view may count again before its
 * window ends (a few views too many), never one too few, and memory stays bounded.
 */
export const SEEN_MAX = 50_000;

/**
 * The (viewer, path) pairs counted within the window, in memory: one process serves everything,
 * and like the rate-limit counters each process keeps its own (two processes may count one
 * visitor once each). The viewer is a keyed hash of the IP's key (an IPv6 subscriber by its /64)
 * and the User-Agent (analytics.service.ts): phones behind one carrier's NAT are viewers of their
 * own. Nothing is written: the beacon runs on every public page load and must stay one insert.
 */
export class SeenViews {
  /** Per pair, when its view was counted. A Map iterates in insertion order, so the oldest come first. */
  private readonly seen = new Map<string, number>();
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly max: number;
  constructor(clock: Clock, windowMs = VIEW_WINDOW_MS, max = SEEN_MAX) {
    this.clock = clock;
    this.windowMs = windowMs;
    this.max = max;
  }

  /** True the first time the viewer reports the path within the window (and remembers it); false for a repeat. */
  first(viewer: string, path: string): boolean {
    const now = this.clock.elapsed(); // never back: an NTP step back of the wall clock would stop counting for its size
    // Forget the pairs whose window has ended, the oldest first, stopping at the first still inside
    // it: each pair is dropped once, so a view costs O(1) however many are remembered.
    for (const [key, at] of this.seen) {
      if (now - at < this.windowMs) break;
      this.seen.delete(key);
    }
    const key = `${viewer} ${path}`;
    const at = this.seen.get(key);
    if (at !== undefined && now - at < this.windowMs) return false;
    this.seen.delete(key); // set again at the end, so that the order stays the order of counting
    this.seen.set(key, now);
    if (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value!);
    return true;
  }

  /** How many pairs are remembered (tests check the bound). */
  get size(): number {
    return this.seen.size;
  }
}

/**
 * A client that says it is a crawler (Googlebot, bingbot, AhrefsBot, YandexBot, Applebot, Baiduspider,
 * Yahoo! Slurp, Facebook's and Lighthouse's renderers…): those that run scripts post the beacon like
 * a browser. Not after "cu": CUBOT is a phone brand whose browsers name it.
 */
const CRAWLER = /(?<!cu)bot|crawl|spider|slurp|facebookexternalhit|mediapartners-google|lighthouse/i;

/**
 * A crawler by its own word, or a client that names no user agent at all: every browser sends one
 * (with the beacon's fetch too), so an empty one is a script, not a visitor.
 */
export function isCrawler(userAgent: string | undefined): boolean {
  return !userAgent?.trim() || CRAWLER.test(userAgent);
}

/** The ad an ad page (/ad/<id>, /es/ad/<id>, /pt/ad/<id>) shows, as the staff's top ads name it; null for other pages. */
export function adOfPath(path: string): string | null {
  return /^(?:\/(?:es|pt))?\/ad\/(.+)$/.exec(path)?.[1] ?? null;
}
