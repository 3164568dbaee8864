import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';
import { SEARCH_TOTAL_CAP } from '../../../contract/api/listings.ts';
import { fold } from './listings.search.ts';

// Edges of the public search (GET /api/search) where its kept match lists and capped totals could
// go wrong: letters the search index folds that JavaScript does not, and ads whose time ran out
// before the expire-ads job hid them.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

const MINUTE_MS = 60_000;
const get = (url: string) => ctx.app.inject({ method: 'GET', url });
const search = (q: string, extra = '') => get(`/api/search?query=${encodeURIComponent(q)}${extra}`);
const idsOf = (res: { json: () => { ads: { id: string }[] } }) => res.json().ads.map((a) => a.id);

/** `n` more public copies of an ad (same words and place, newer bumps), written straight to the table (as listings.search.test.ts does). */
function copies(adId: string, n: number): void {
  const sqlite = ctx.app.deps.database.sqlite;
  const row = sqlite.prepare('SELECT * FROM ads WHERE id = ?').get(adId) as Record<string, unknown>;
  const cols = Object.keys(row);
  const insert = sqlite.prepare(`INSERT INTO ads (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
  sqlite.transaction(() => {
    for (let i = 1; i <= n; i++) insert.run({ ...row, id: `${adId}x${i}`, bump_seq: (row.bump_seq as number) + i });
  })();
}

/** Sets when ads' time runs out, straight in the table (a change of each, as a renewal would be). */
function endAt(at: Date, ids: string[]): void {
  const update = ctx.app.deps.database.sqlite.prepare('UPDATE ads SET expires_at = ? WHERE id = ?');
  for (const id of ids) update.run(at.toISOString(), id);
}

/** The total of a search and how many ads its page 10 (the last one counted) shows. */
async function capped(q: string): Promise<{ total: number; lastPage: number }> {
  const first = (await search(q)).json();
  const last = (await search(q, '&page=10')).json();
  return { total: first.total, lastPage: last.ads?.length };
}

describe('search: letters the index folds', () => {
  // FTS5's unicode61 folds the long s "ſ" (and "ẛ") to "s" as it indexes, so an ad titled "ſexy"
  // matches the search "sexy": the kept list of "sexy" must be dropped when such an ad arrives.
  it.each(['ſexy', 'ẛexy'])('drops a kept search list when a new ad matches it only through the index folding (%s)', async (word) => {
    expect(idsOf(await search('sexy'))).toEqual([]); // kept: no matches yet
    const ad = await liveAd(ctx, owner, admin, ny, { title: `Elegant ${word} companion downtown` });
    expect(idsOf(await search('sexy companion')), 'an uncached search finds it').toEqual([ad.id]);
    expect(idsOf(await search('sexy')), 'the kept search').toEqual([ad.id]);
  });

  // The kept lists' word test folds ad texts and search words with fold(): letters the index takes
  // as one term must fold to one string, or a list could be kept while a new ad matches it.
  it('folds letters the index takes as one term to one string (a scratch FTS5 table with ads_fts tokenizer)', () => {
    const schema = ctx.app.deps.database.sqlite.prepare("SELECT sql FROM sqlite_master WHERE name = 'ads_fts'").pluck().get() as string;
    const tokenize = /tokenize\s*=\s*('(?:[^']|'')*')/.exec(schema)?.[1];
    expect(tokenize).toContain('unicode61');
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = ${tokenize}); CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance');`);
    const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    const termsOf = db.prepare('SELECT term FROM v WHERE doc = ? ORDER BY offset').pluck();
    const letters = 'sSſẛśŠșµμΜσΣςβΒϐθΘϑϴφΦϕπΠϖκΚϰρΡϱεΕϵeEéÉèËẽaAáÅǻäæÆǽiIıİíÏnNñÑcCçÇoOøØöőßẞ0١';
    const folds = new Map<string, Set<string>>();
    let id = 0;
    for (const c of letters) {
      insert.run(++id, `q${c}q`);
      const terms = termsOf.all(id) as string[];
      expect(terms, c).toHaveLength(1);
      let f = folds.get(terms[0]);
      if (!f) folds.set(terms[0], (f = new Set()));
      f.add(fold(`q${c}q`));
    }
    db.close();
    expect(folds.get('qsq')!.size, 'the set groups letters').toBe(1);
    expect([...folds].filter(([, f]) => f.size > 1).map(([term, f]) => [term, [...f]])).toEqual([]);
  });
});

describe('search: ads whose time ran out before expire-ads', () => {
  // Search counts the newest 200 live matches (the total says "200+", 10 pages of 20 are served).
  // Overdue ads among the newest matches read (counted until expire-ads hides them) must not take
  // the places of live ones: the search reads past them.
  it('counts and serves 200 live matches when some of the newest 200 ran out, reading once more only then', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    copies(ad.id, 204);
    const read = vi.spyOn(ctx.app.deps.services.listings.reads, 'searchSeqs');
    expect(await capped('downtown'), 'nothing overdue').toEqual({ total: SEARCH_TOTAL_CAP, lastPage: 20 });
    expect(read, 'one read when no match is overdue').toHaveBeenCalledTimes(1);

    endAt(new Date(ctx.clock.now().getTime() - 1000), [`${ad.id}x204`, `${ad.id}x203`, `${ad.id}x202`]);
    expect((await get('/api/listings')).json().total).toBe(202);
    read.mockClear();
    expect(await capped('companion')).toEqual({ total: SEARCH_TOTAL_CAP, lastPage: 20 });
    expect(read, 'a second read past the 3 overdue, then the list is kept').toHaveBeenCalledTimes(2);
    const shown = idsOf(await search('companion', '&pageSize=100&page=2'));
    expect(shown.at(-1), 'the 200th live match').toBe(`${ad.id}x2`);
  });

  // A list kept while all its matches were live: some run out later, with no change to drop it.
  it('reads a kept full list again once some of its ads ran out', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    copies(ad.id, 204);
    endAt(new Date(ctx.clock.now().getTime() + 5 * MINUTE_MS), [`${ad.id}x204`, `${ad.id}x203`, `${ad.id}x202`]);
    expect(await capped('companion')).toEqual({ total: SEARCH_TOTAL_CAP, lastPage: 20 });
    ctx.clock.advance(6 * MINUTE_MS);
    expect(await capped('companion')).toEqual({ total: SEARCH_TOTAL_CAP, lastPage: 20 });
    expect(idsOf(await search('companion'))[0], 'the newest live match').toBe(`${ad.id}x201`);
  });

  // Read past the overdue ones, a list can hold every match (more than 200 of them, fewer live): it
  // is not "full", so an older ad that comes to match it still drops it.
  it('keeps counting exactly when the matches read past the overdue ones are all there are', async () => {
    const older = await liveAd(ctx, owner, admin, ny, { title: 'Quiet evenings downtown' });
    const ad = await liveAd(ctx, owner, admin, ny);
    copies(ad.id, 200);
    endAt(new Date(ctx.clock.now().getTime() - 1000), [`${ad.id}x200`, `${ad.id}x199`, `${ad.id}x198`]);
    expect((await search('companion')).json().total).toBe(198);
    ctx.app.deps.database.sqlite.prepare('UPDATE ads SET title = ? WHERE id = ?').run('Quiet companion evenings', older.id);
    const res = (await search('companion', '&page=10')).json();
    expect({ total: res.total, last: res.ads.at(-1)?.id }).toEqual({ total: 199, last: older.id });
  });
});
