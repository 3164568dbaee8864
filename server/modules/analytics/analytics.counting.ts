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
 * At most this many (viewer, path) pairs are remembered (~40 MB at the longest paths with the
 * per-address counts, at most one per pair: an estimate, not measured). Past it the oldest are
 * forgotten first: under a flood of distinct viewers a view may count again before its window
 * ends (a few views too many), never one too few, and memory stays bounded.
 */
export const SEEN_MAX = 50_000;

/**
 * At most this many viewers of one address count for one path within the window. A viewer is the
 * address and the user agent (analytics.service.ts), and a script picks its user agent: without a
 * cap, one address naming a new one at each beacon counted each as a view of the ad (300 beacons,
 * 300 views) and filled the pairs remembered, so honest repeat views counted again. 8: the people
 * behind one address (a carrier's NAT, a hotel's Wi-Fi, an office) who open the same ad within 30
 * minutes are a handful, so honest views are all counted, and one address adds at most 8 where
 * the IP alone counted 1.
 */
export const VIEWERS_PER_ADDRESS = 8;

/** One address's viewers of one path counted within the window (the pairs that point to it). */
interface AddressPath {
  readonly key: string;
  viewers: number;
}

/**
 * The (viewer, path) pairs counted within the window, in memory: one process serves everything,
 * and like the rate-limit counters each process keeps its own (two processes may count one
 * visitor once each). The viewer is a keyed hash of the IP's key (an IPv6 subscriber by its /64)
 * and the User-Agent (analytics.service.ts): phones behind one carrier's NAT are viewers of their
 * own, up to VIEWERS_PER_ADDRESS per path. Nothing is written: the beacon runs on every public page
 * load and must stay one insert.
 */
export class SeenViews {
  /**
   * Per pair, when its view was counted and its address's count for the path. A Map iterates in
   * insertion order, so the oldest come first.
   */
  private readonly seen = new Map<string, { at: number; of: AddressPath }>();
  /**
   * Per (address, path), how many of the pairs above are its viewers: a pair leaves it when the
   * pair is forgotten, so it holds no more entries than `seen` and needs no pruning of its own.
   */
  private readonly byAddress = new Map<string, AddressPath>();
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly max: number;
  private readonly perAddress: number;
  constructor(clock: Clock, windowMs = VIEW_WINDOW_MS, max = SEEN_MAX, perAddress = VIEWERS_PER_ADDRESS) {
    this.clock = clock;
    this.windowMs = windowMs;
    this.max = max;
    this.perAddress = perAddress;
  }

  /**
   * True the first time the viewer reports the path within the window (and remembers it); false
   * for a repeat, and for a new viewer of an address that already has `perAddress` viewers of the
   * path counted in the window (not remembered: rotating user agents adds no pairs).
   * `address` names the viewer's address (the viewer itself when omitted).
   */
  first(viewer: string, path: string, address = viewer): boolean {
    const now = this.clock.elapsed(); // never back: an NTP step back of the wall clock would stop counting for its size
    // Forget the pairs whose window has ended, the oldest first, stopping at the first still inside
    // it: each pair is dropped once, so a view costs O(1) however many are remembered.
    for (const [key, entry] of this.seen) {
      if (now - entry.at < this.windowMs) break;
      this.forget(key, entry.of);
    }
    const key = `${viewer} ${path}`;
    const known = this.seen.get(key);
    if (known !== undefined) {
      if (now - known.at < this.windowMs) return false;
      this.forget(key, known.of); // set again below, so that the order stays the order of counting
    }
    const groupKey = `${address} ${path}`;
    let of = this.byAddress.get(groupKey);
    if (of && of.viewers >= this.perAddress) return false;
    if (!of) this.byAddress.set(groupKey, (of = { key: groupKey, viewers: 0 }));
    of.viewers++;
    this.seen.set(key, { at: now, of });
    if (this.seen.size > this.max) {
      const [oldest, entry] = this.seen.entries().next().value!;
      this.forget(oldest, entry.of);
    }
    return true;
  }

  private forget(key: string, of: AddressPath): void {
    this.seen.delete(key);
    if (--of.viewers === 0) this.byAddress.delete(of.key);
  }

  /** How many pairs are remembered (tests check the bound). */
  get size(): number {
    return this.seen.size;
  }

  /** How many (address, path) counts are kept (tests check they go with their pairs). */
  get addressPaths(): number {
    return this.byAddress.size;
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
