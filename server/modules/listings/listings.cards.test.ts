import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestContext, TestUser } from '../../test/harness.ts';
import { liveAd, ownerAdminNy, type Place, placeIn } from '../ads/ads.testkit.ts';
import { CardCache } from './listings.cards.ts';
import type { CardRow } from './listings.search.repository.ts';

// The cards searches show (CardCache, listings.cards.ts): a search's page takes the cards it
// already holds and reads only the others, and every change of a card's row (an ad's own columns,
// its owner's verified phone, a place) reaches every search that shows it.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ({ ctx, owner, admin, ny } = await ownerAdminNy());
});
afterEach(async () => {
  vi.restoreAllMocks();
  await ctx.close();
});

type Card = { id: string; title: string; phoneVerified: boolean };
const search = async (query: string): Promise<Card[]> => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/search?query=${query}` });
  expect(res.statusCode).toBe(200);
  return res.json().ads as Card[];
};
/** Two ads whose words overlap: "redhead", "french" and "fluent" find the first; "french" finds both. */
const REDHEAD = { title: 'Elegant redhead companion', description: 'Fluent in French and Italian, dinner dates and travel. Discreet.' };
const FRENCH = { title: 'Quiet evenings downtown', description: 'French speaking, calm and discreet, by appointment only.' };
const seqOf = (id: string) => (ctx.app.deps.database.sqlite.prepare('SELECT bump_seq FROM ads WHERE id = ?').get(id) as { bump_seq: number }).bump_seq;

describe('the cards searches show (CardCache)', () => {
  it('a search reads only the cards no other search read before it', async () => {
    const both = await liveAd(ctx, owner, admin, ny, REDHEAD);
    const french = await liveAd(ctx, owner, admin, ny, FRENCH);
    const listings = ctx.app.deps.services.listings;
    const read = vi.spyOn(listings.reads, 'cardsBySeqs');
    expect((await search('redhead')).map((c) => c.id)).toEqual([both.id]);
    expect(read.mock.calls.map(([seqs]) => [...seqs])).toEqual([[seqOf(both.id)]]);
    read.mockClear();
    // Another search (its own list and answer), newest first: only the card not read yet is read.
    expect((await search('french')).map((c) => c.id)).toEqual([french.id, both.id]);
    expect(read.mock.calls.map(([seqs]) => [...seqs])).toEqual([[seqOf(french.id)]]);
    read.mockClear();
    expect((await search('fluent')).map((c) => c.id)).toEqual([both.id]);
    expect(read).not.toHaveBeenCalled();
    expect(listings.cards.cache.stats.hits).toBe(2);
  });

  it("every change of a card's row shows at once in every search that shows it", async () => {
    const ad = await liveAd(ctx, owner, admin, ny, REDHEAD);
    const sqlite = ctx.app.deps.database.sqlite;
    for (const q of ['redhead', 'french']) expect(await search(q)).toMatchObject([{ id: ad.id, title: 'Elegant redhead companion', phoneVerified: false }]);
    // Its owner's phone verified (a trigger on users rewrites the card, same bump_seq).
    const { phone } = sqlite.prepare('SELECT phone FROM ads WHERE id = ?').get(ad.id) as { phone: string };
    sqlite.prepare('UPDATE users SET phone = ?, phone_verified_at = ? WHERE id = ?').run(phone, new Date().toISOString(), owner.id);
    for (const q of ['redhead', 'french']) expect(await search(q)).toMatchObject([{ id: ad.id, phoneVerified: true }]);
    // Its own columns, even by hand (the trigger on ads).
    sqlite.prepare('UPDATE ads SET title = ? WHERE id = ?').run('Elegant redhead, now in Brooklyn', ad.id);
    for (const q of ['redhead', 'french']) expect(await search(q)).toMatchObject([{ id: ad.id, title: 'Elegant redhead, now in Brooklyn' }]);
  });

  it('a change of place empties it; a change of another ad leaves it', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, REDHEAD);
    const other = await liveAd(ctx, owner, admin, ny, FRENCH);
    await search('redhead');
    const cards = ctx.app.deps.services.listings.cards.cache;
    expect(cards.has(String(seqOf(ad.id)))).toBe(true);
    ctx.app.deps.database.sqlite.prepare('UPDATE ads SET title = ? WHERE id = ?').run('Quiet evenings uptown', other.id);
    await search('redhead');
    expect(cards.has(String(seqOf(ad.id)))).toBe(true);
    const elsewhere = await placeIn(ctx, 'wy');
    await ctx.app.deps.db.updateTable('cities').set({ enabled: 0 }).where('id', '=', elsewhere.cityId).execute();
    await ctx.app.inject({ method: 'GET', url: '/api/home' }); // any public read brings the caches up to date
    expect(cards.size).toBe(0);
  });
});

describe('CardCache.join', () => {
  const row = (seq: number, card: string, expires = Date.UTC(2100, 0)): CardRow => ({ seq, card, expires_at: new Date(expires).toISOString() });

  it("keeps each card until its ad's term ends, in the order asked, leaving out what the read no longer finds", () => {
    const cards = new CardCache({ entries: 10, bytes: 10_000 });
    const asked: number[][] = [];
    const rows = new Map([
      [3, row(3, '{"n":3}', 5_000)],
      [2, row(2, '{"n":2}')],
      [1, row(1, '{"n":1}')],
    ]);
    const read = (missing: number[]) => {
      asked.push(missing);
      return missing.flatMap((s) => rows.get(s) ?? []).reverse(); // the statement's order is not the page's
    };
    expect(cards.join([3, 2, 1], 0, true, read)).toBe('{"n":3},{"n":2},{"n":1}');
    expect(cards.join([3, 1], 1_000, true, read)).toBe('{"n":3},{"n":1}');
    expect(asked).toEqual([[3, 2, 1]]);
    rows.delete(3); // its term ended: the statement leaves it out
    expect(cards.join([3, 2], 5_000, true, read)).toBe('{"n":2}');
    expect(asked).toEqual([[3, 2, 1], [3]]);
  });

  it('while the caches are behind the change log (reads inside a transaction of their own connection), takes no card from it and keeps none', () => {
    const cards = new CardCache({ entries: 10, bytes: 10_000 });
    expect(cards.join([2, 1], 0, true, (m) => m.map((s) => row(s, `{"old":${s}}`)))).toBe('{"old":2},{"old":1}');
    const asked: number[][] = [];
    const fresh = (m: number[]) => (asked.push(m), m.map((s) => row(s, `{"new":${s}}`)));
    expect(cards.join([2, 1, 0], 0, false, fresh)).toBe('{"new":2},{"new":1},{"new":0}');
    expect(asked).toEqual([[2, 1, 0]]);
    expect(cards.cache.has('0')).toBe(false);
    expect(cards.join([2, 1], 0, true, fresh)).toBe('{"old":2},{"old":1}'); // in step again: the kept cards (the log drops changed ones)
  });
});
