import { brotliDecompressSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { liveAd, placeIn } from '../ads/ads.testkit.ts';
import { TaggedCache } from './listings.cache.ts';
import { FrequencySketch, keyHash } from './listings.frequency.ts';
import { packSeqs, SearchMatches } from './listings.search.ts';
import type { PublicReads } from './listings.repository.ts';

// Admission by frequency (TinyLFU): a full cache keeps a new entry only if its key was asked for
// more often lately than the entry it would push out. Each test predicts its outcomes from its own
// count of the askings before it compares.

// A seeded generator: the runs are the same on every machine.
const rng = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;

describe('the frequency sketch', () => {
  it('counts a key never below its true count, and halves every count after 5 askings an entry held (100 at least)', () => {
    const sketch = new FrequencySketch(100);
    const rand = rng(3);
    const keys = Array.from({ length: 60 }, (_, i) => keyHash(`/api/listings?state=s${i}&page=1`));
    const truth = new Map<number, number>(keys.map((k) => [k, 0]));
    // a cache holding 40 entries: halved every 200 askings
    for (let added = 1; added <= 199; added++) {
      const k = keys[Math.floor(rand() * rand() * keys.length)]; // skewed: the first keys far more often
      sketch.add(k, 40);
      truth.set(k, Math.min(15, truth.get(k)! + 1));
    }
    for (const k of keys) expect(sketch.frequency(k)).toBeGreaterThanOrEqual(truth.get(k)!);
    // 60 keys in 1,024 counters: nearly all are exact
    expect(keys.filter((k) => sketch.frequency(k) === truth.get(k)).length).toBeGreaterThanOrEqual(55);
    const before = new Map(keys.map((k) => [k, sketch.frequency(k)]));
    const last = keys[59];
    sketch.add(last, 40); // the 200th: every counter halves, this one's after its increment
    for (const k of keys) expect(sketch.frequency(k), `key ${k}`).toBe(Math.floor(Math.min(15, before.get(k)! + (k === last ? 1 : 0)) / 2));
  });

  it('stops counting at 15, and a nearly empty cache halves every 100 askings', () => {
    const sketch = new FrequencySketch(10);
    const k = keyHash('/api/ads/popular');
    for (let i = 0; i < 99; i++) sketch.add(k, 2);
    expect(sketch.frequency(k)).toBe(15);
    sketch.add(k, 2); // the 100th (5 × 2 held is less)
    expect(sketch.frequency(k)).toBe(7);
  });

  it('hashes keys apart: distinct URLs get distinct hashes, the same URL the same one', () => {
    const urls = Array.from({ length: 20_000 }, (_, i) => `/api/search?query=w${i % 97}&state=s${i % 53}&page=${1 + (i % 3)}&n=${i}`);
    expect(new Set(urls.map(keyHash)).size).toBe(urls.length);
    expect(keyHash('/api/ads/abc')).toBe(keyHash(['/api', 'ads', 'abc'].join('/')));
  });
});

/** A model of the tagged cache with admission: insertion order with "used" marks (the clock), exact counts halved every period. */
class AdmissionModel {
  order: { key: string; used: boolean; tag: string }[] = [];
  private readonly counts = new Map<string, number>();
  private added = 0;
  private warm = 0;
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  private count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  get(key: string): boolean {
    this.counts.set(key, Math.min(15, this.count(key) + 1));
    if (++this.added >= Math.max(100, 5 * this.order.length)) {
      for (const [k, c] of this.counts) this.counts.set(k, c >> 1);
      this.added = 0;
    }
    const e = this.order.find((x) => x.key === key);
    if (e) e.used = true;
    return e !== undefined;
  }
  set(key: string, tag: string): boolean {
    if (this.order.some((x) => x.key === key)) {
      this.order = this.order.filter((x) => x.key !== key);
      this.order.push({ key, used: false, tag });
      return true;
    }
    const f = this.count(key);
    while (this.order.length >= this.max) {
      while (this.order[0].used) {
        this.order[0].used = false;
        this.order.push(this.order.shift()!);
      }
      if (this.count(this.order[0].key) >= f && !(f > 5 && ++this.warm % 128 === 0)) {
        this.order.push(this.order.shift()!); // the victim stays, passed over
        return false;
      }
      this.order.shift();
    }
    this.order.push({ key, used: false, tag });
    return true;
  }
  drop(tag: string): void {
    this.order = this.order.filter((x) => x.tag !== tag);
  }
}

describe('the tagged cache with admission', () => {
  it('keeps a new key only when it was asked for more often than the one it would push out', () => {
    const cache = new TaggedCache<string>(3, Number.POSITIVE_INFINITY, { admission: true });
    const ask = (key: string, times: number) => {
      for (let i = 0; i < times; i++) cache.get(key, 0);
    };
    const put = (key: string) => cache.set(key, { value: key, until: 1000, tags: [] });
    for (const k of ['a', 'b', 'c']) {
      ask(k, 3);
      expect(put(k)).toBe(true); // room: kept whatever its count
    }
    ask('d', 1);
    expect(put('d')).toBe(false); // asked once; a, the first to go, three times
    expect(['a', 'b', 'c', 'd'].map((k) => cache.has(k))).toEqual([true, true, true, false]);
    expect(cache.stats.refused).toBe(1);
    ask('d', 3); // four times now: more than b (a was passed over), which goes
    expect(put('d')).toBe(true);
    expect(['a', 'b', 'c', 'd'].map((k) => cache.has(k))).toEqual([true, false, true, true]);
    // a key kept again is replaced whatever its count
    expect(put('c')).toBe(true);
    expect(cache.size).toBe(3);
  });

  it('lets in every 128th new key asked for more than five times that would lose', () => {
    const cache = new TaggedCache<string>(1, Number.POSITIVE_INFINITY, { admission: true });
    for (let i = 0; i < 15; i++) cache.get('hot', 0);
    cache.set('hot', { value: 'hot', until: 1000, tags: [] });
    for (let i = 0; i < 6; i++) cache.get('warm', 0);
    const kept = Array.from({ length: 128 }, () => cache.set('warm', { value: 'warm', until: 1000, tags: [] }));
    expect(kept.indexOf(true)).toBe(127);
    expect(cache.has('warm') && !cache.has('hot')).toBe(true);
    // asked five times: never
    for (let i = 0; i < 15; i++) cache.get('warm', 0);
    for (let i = 0; i < 5; i++) cache.get('cool', 0);
    expect(Array.from({ length: 300 }, () => cache.set('cool', { value: 'cool', until: 1000, tags: [] })).some(Boolean)).toBe(false);
  });

  it('admits, refuses and evicts exactly as its model predicts, through tens of thousands of askings, sets and drops', () => {
    const rand = rng(17);
    const max = 8;
    const cache = new TaggedCache<string>(max, Number.POSITIVE_INFINITY, { admission: true });
    const model = new AdmissionModel(max);
    const keys = Array.from({ length: 24 }, (_, i) => `/api/ads/k${i}`);
    let refused = 0;
    for (let step = 0; step < 40_000; step++) {
      const key = keys[Math.floor(rand() * rand() * keys.length)]; // some keys far more often than others
      const tag = `t${Math.floor(rand() * 6)}`;
      const r = rand();
      if (r < 0.6) expect(cache.get(key, 0) !== undefined, `step ${step}: get ${key}`).toBe(model.get(key));
      else if (r < 0.98) {
        const expected = model.set(key, tag);
        if (!expected) refused++;
        // half the time asked first, as a compressed answer is (admitting): the same outcome
        const asked = rand() < 0.5;
        const kept = asked
          ? cache.admitting(key, key.length) && cache.set(key, { value: key, until: 1, tags: [tag] })
          : cache.set(key, { value: key, until: 1, tags: [tag] });
        expect(kept, `step ${step}: ${asked ? 'admitting, then ' : ''}set ${key}`).toBe(expected);
      } else {
        cache.drop(tag);
        model.drop(tag);
      }
      if (step % 89 === 0) expect(keys.filter((k) => cache.has(k)).sort(), `step ${step}`).toEqual(model.order.map((e) => e.key).sort());
    }
    expect(cache.stats.refused).toBe(refused);
    expect(refused).toBeGreaterThan(1000); // the run went through refusals, not only through room
  });

  it('asked first whether it would let a key in for part of its bytes (admitting), then set, ends exactly as set alone', () => {
    const rand = rng(29);
    const opts = { admission: true };
    const alone = new TaggedCache<string>(12, 3000, opts);
    const asked = new TaggedCache<string>(12, 3000, opts);
    const keys = Array.from({ length: 40 }, (_, i) => `/api/listings?city=c${i}`);
    let refusedFirst = 0;
    let refusedAfter = 0;
    for (let step = 0; step < 30_000; step++) {
      const key = keys[Math.floor(rand() * rand() * keys.length)];
      if (rand() < 0.6) {
        expect(asked.get(key, 0) !== undefined).toBe(alone.get(key, 0) !== undefined);
        continue;
      }
      // 50–1,000 bytes: a new entry may need one, two or more pushed out to fit in 3,000
      const entry = { value: 'x'.repeat(50 + Math.floor(rand() * 950)), until: 1, tags: [] };
      const expected = alone.set(key, entry);
      const first = asked.admitting(key, Math.floor(rand() * (entry.value.length + 1))); // any part of its size, the whole of it included
      if (!first) refusedFirst++;
      else if (!expected) refusedAfter++; // let in past the first, refused at a later one
      expect(first && asked.set(key, entry), `step ${step}: ${key}`).toBe(expected);
      expect(asked.weight).toBe(alone.weight);
      if (step % 97 === 0) expect(keys.filter((k) => asked.has(k))).toEqual(keys.filter((k) => alone.has(k)));
    }
    expect(asked.stats).toEqual(alone.stats);
    expect(refusedFirst).toBeGreaterThan(500);
    expect(refusedAfter).toBeGreaterThan(50); // the bytes made set() judge more than the first
  });

  it('holds the often-asked keys while a long tail asked for twice each passes through, where the clock alone loses them', () => {
    const run = (admission: boolean) => {
      const cache = new TaggedCache<string>(100, Number.POSITIVE_INFINITY, { admission });
      const rand = rng(5);
      let hot = 0;
      let hits = 0;
      for (let i = 0; i < 40_000; i++) {
        // half the askings go to 50 popular keys (half the cache), the rest to a tail of 10,000 keys asked twice in a row
        const key = i % 2 === 0 ? `hot${Math.floor(rand() * 50)}` : `tail${Math.floor(i / 4)}`;
        const hit = cache.get(key, 0) !== undefined;
        if (key.startsWith('hot') && i >= 20_000) {
          hot++;
          if (hit) hits++;
        }
        if (!hit) cache.set(key, { value: key, until: 1000, tags: [] });
      }
      return hits / hot;
    };
    const withAdmission = run(true);
    const clockOnly = run(false);
    expect(withAdmission).toBeGreaterThan(0.98); // measured: 0.999
    expect(clockOnly).toBeLessThan(0.9); // 0.800
  });
});

describe("the searches' lists with admission", () => {
  let reads: PublicReads;
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
    reads = ctx.app.deps.services.listings.reads;
    return () => ctx.close();
  });

  it('keep a new list only when its search was asked for more often than the least recently used; refused, it is returned as not kept', () => {
    const matches = new SearchMatches(reads, { entries: 2, bytes: 1_000_000 }, { admission: true });
    const list = packSeqs([3, 2, 1]);
    for (let i = 0; i < 3; i++) matches.get('old');
    for (let i = 0; i < 2; i++) matches.get('new');
    expect(matches.set('old', list, ['old'], {})).toEqual([]);
    expect(matches.set('other', list, ['other'], {})).toEqual([]);
    // full: "new" (asked twice) against "old" (three times), the least recently used
    expect(matches.set('new', list, ['new'], {})).toEqual(['new']);
    expect(matches.has('new')).toBe(false);
    expect(matches.stats.refused).toBe(1);
    // "old" was passed over (now the most recently used); "other" (asked never) goes for "new"
    expect(matches.set('new', list, ['new'], {})).toEqual(['other']);
    expect([matches.has('old'), matches.has('other'), matches.has('new')]).toEqual([true, false, true]);
    // a list kept again is replaced, whatever its count
    expect(matches.set('new', packSeqs([9]), ['new'], {})).toEqual([]);
    expect(Array.from(matches.get('new')!)).toEqual([9]);
  });
});

describe('the public caches use admission', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('the API answers, once full, refuse a page asked for less often than what it would push out, and keep the ad asked for more', async () => {
    ctx = await createTestApp({ cacheMb: 0.1 }); // ~70 answers
    const small = ctx;
    const o = await makeUser(small, { status: 'approved' });
    const ad = await liveAd(small, o, await asAdmin(small), await placeIn(small, 'ny'));
    const api = small.app.deps.services.listings.caches.get('api')!;
    const ask = (u: string) => small.app.inject({ method: 'GET', url: u });
    const url = `/api/ads/${ad.id}`;
    for (let i = 0; i < 5; i++) expect((await ask(url)).statusCode).toBe(200);
    expect(api.has(`ad:${ad.id}`)).toBe(true);
    // pages asked for twice each (kept from their second asking) until the cache is full and refuses one
    const states = ['new-york', 'texas', 'california', 'florida', 'ohio'];
    const pages: string[] = [];
    for (let i = 0; api.stats.refused === 0 && i < 300; i++) {
      const page = `/api/listings?state=${states[i % 5]}&pageSize=${1 + Math.floor(i / 5)}`;
      pages.push(page);
      for (let j = 0; j < 2; j++) expect((await ask(page)).statusCode).toBe(200);
    }
    expect(api.stats.refused).toBe(1);
    const refused = pages.at(-1)!;
    expect(api.has(refused)).toBe(false);
    // kept: the ad and every page before it (there was room for them: none was pushed out)
    expect(pages.slice(0, -1).every((p) => api.has(p))).toBe(true);
    expect(api.has(`ad:${ad.id}`)).toBe(true);
    expect(api.size).toBe(pages.length);
    expect(pages.length).toBeGreaterThan(20);
    // asked for a third time, the refused page now outweighs one asked for twice, and is kept
    await ask(refused);
    expect(api.has(refused)).toBe(true);
    expect(api.stats.refused).toBe(1);
    // the searches' lists too: once full, a search asked for once does not push out one asked for as often
    const matches = small.app.deps.services.listings.matches;
    for (let i = 0; matches.stats.refused === 0 && i < 300; i++) expect((await ask(`/api/search?query=word${i}`)).statusCode).toBe(200);
    expect(matches.stats.refused).toBe(1);
    expect(matches.size).toBe(matches.budget.entries);
  });

  it('asks the full cache before compressing an answer: one it would refuse goes out as it is while the loop is saturated, compressed when it has time', async () => {
    const load = { busy: true, close() {} };
    ctx = await createTestApp({ cacheMb: 0.1, load }); // ~80 answers
    const small = ctx;
    const o = await makeUser(small, { status: 'approved' });
    const admin = await asAdmin(small);
    const ny = await placeIn(small, 'ny');
    for (let i = 0; i < 8; i++) await liveAd(small, o, admin, ny, { title: `Weekend companion number ${i}` });
    const api = small.app.deps.services.listings.caches.get('api')!;
    const ask = (u: string) => small.app.inject({ method: 'GET', url: u, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    // small pages asked for twice each (kept from their second asking) until the cache is full and refuses one
    const states = ['texas', 'california', 'florida', 'ohio'];
    for (let i = 0; api.stats.refused === 0 && i < 300; i++) {
      const page = `/api/listings?state=${states[i % 4]}&pageSize=${1 + Math.floor(i / 4)}`;
      for (let j = 0; j < 2; j++) expect((await ask(page)).statusCode).toBe(200);
    }
    expect(api.stats.refused).toBe(1);
    const large = `/api/listings?state=new-york&city=${ny.citySlug}`;
    const once = await ask(large); // its first asking: not kept, so sent as it is (busy)
    expect(once.headers['content-encoding']).toBeUndefined();
    expect(once.rawPayload.length).toBeGreaterThan(2048);
    expect(once.json().ads).toHaveLength(8);
    // its second: asked for as often as the page it would push out, refused before it was compressed
    const twice = await ask(large);
    expect(api.stats.refused).toBe(2);
    expect(api.has(large)).toBe(false);
    expect(twice.headers['content-encoding']).toBeUndefined();
    expect(twice.body).toBe(once.body);
    // its third: asked for more often now, let in, compressed and kept
    const third = await ask(large);
    expect(api.stats.refused).toBe(2);
    expect(third.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(third.rawPayload).toString()).toBe(once.body);
    expect((api.get(large, small.clock.now().getTime())!.value as { br: Buffer }).br.equals(third.rawPayload)).toBe(true);
    // the loop has time again: an answer refused is compressed for its browser all the same
    load.busy = false;
    const other = `${large}&pageSize=19`;
    expect((await ask(other)).headers['content-encoding']).toBe('br');
    const again = await ask(other);
    expect(api.stats.refused).toBe(3);
    expect(api.has(other)).toBe(false);
    expect(again.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(again.rawPayload).toString()).toBe(once.body.replace('"pageSize":20', '"pageSize":19'));
  });
});
