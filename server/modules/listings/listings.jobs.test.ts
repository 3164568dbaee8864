import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { findJob } from '../cron/cron.jobs.ts';
import { runJob } from '../cron/cron.service.ts';
import { compactSearchIndex } from './listings.jobs.ts';
import type { JobReport } from '../../core/report.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const WORDS = ['harbor', 'violet', 'quiet', 'sunset', 'garden', 'velvet', 'marble', 'ember'];

/** Public ads written one at a time, as a day of posts and flips writes them: each its own segment of the index. */
async function postManyAds(n: number): Promise<void> {
  const owner = await makeUser(ctx, { status: 'approved' });
  const city = await ctx.app.deps.db.selectFrom('cities').select(['id', 'state_id']).where('state_id', '=', 'ny').executeTakeFirstOrThrow();
  const now = ctx.clock.now().toISOString();
  const insert = ctx.app.deps.database.sqlite.prepare(
    `INSERT INTO ads (id, owner_id, listing_type, title, description, age, state_id, city_id, phone, photos_json, status, online,
       bump_seq, bumped_at, published_at, expires_at, created_at, updated_at, visible)
     VALUES (?, ?, 'female_esc', ?, ?, '30', ?, ?, '+12125550100', '[]', 'approved', 1, ?, ?, ?, '2099-01-01T00:00:00.000Z', ?, ?, 1)`,
  );
  for (let i = 0; i < n; i++) {
    const words = `${WORDS[i % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]}`;
    insert.run(
      `ad${i}`,
      owner.id,
      `A ${words} evening number ${i}`,
      `Friendly and discreet, ${words}, by appointment. `.repeat(3),
      city.state_id,
      city.id,
      i + 1,
      now,
      now,
      now,
      now,
    );
  }
  // and some flips: offline (a tombstone) and back (a new entry)
  const flip = ctx.app.deps.database.sqlite.prepare('UPDATE ads SET visible = ?, online = ? WHERE id = ?');
  for (let i = 0; i < n; i += 3) {
    flip.run(0, 0, `ad${i}`);
    if (i % 2 === 0) flip.run(1, 1, `ad${i}`);
  }
}

const leafRows = () => ctx.app.deps.database.sqlite.prepare('SELECT count(*) FROM ads_fts_data').pluck().get() as number;
const indexBytes = (table = 'ads_fts') => ctx.app.deps.database.sqlite.prepare(`SELECT sum(length(block)) FROM ${table}_data`).pluck().get() as number;

/** The same public ads indexed at once and optimized: the smallest the index can be. */
function referenceBytes(): number {
  ctx.app.deps.database.sqlite.exec(`
    CREATE VIRTUAL TABLE ref_fts USING fts5 (title, description, place, tags, content = '', contentless_delete = 1, detail = column, tokenize = 'unicode61 remove_diacritics 2');
    INSERT INTO ref_fts (rowid, title, description, place, tags)
      SELECT -a.bump_seq, a.title, a.description, c.name || ' ' || s.name || ' ' || s.code, 'ty' || replace(a.listing_type, '_', '') || ' st' || a.state_id
      FROM ads a JOIN cities c ON c.id = a.city_id JOIN states s ON s.id = a.state_id WHERE a.visible = 1;
    INSERT INTO ref_fts (ref_fts) VALUES ('optimize');`);
  return indexBytes('ref_fts');
}

/** For each word: the index's matches, and what they must be (the public ads with the word in title or description, newest bump first). */
function matchesByWord(): { word: string; found: unknown[]; expected: unknown[] }[] {
  const { sqlite, reader } = ctx.app.deps.database;
  return WORDS.map((word) => ({
    word,
    found: reader.prepare('SELECT -rowid FROM ads_fts WHERE ads_fts MATCH ? ORDER BY rowid').pluck().all(`{title description place} : "${word}"`),
    expected: sqlite
      .prepare(`SELECT bump_seq FROM ads WHERE visible = 1 AND (title LIKE ? OR description LIKE ?) ORDER BY bump_seq DESC`)
      .pluck()
      .all(`%${word}%`, `%${word}%`),
  }));
}

describe('compact-search-index', () => {
  it('merges the index written ad by ad into one segment, and every word still finds exactly its ads', async () => {
    await postManyAds(300);
    for (const m of matchesByWord()) {
      expect(m.found.length, m.word).toBeGreaterThan(0);
      expect(m.found, m.word).toEqual(m.expected);
    }
    const rows = leafRows();
    const bytes = indexBytes();
    const ref = referenceBytes();
    const run = await runJob(ctx.app.deps, findJob('compact-search-index')!);
    expect(run).toMatchObject({ outcome: 'ok' });
    expect(run.message).toMatch(/^search index merged: \d+ merge steps? of 64 pages$/);
    // as small as the same ads indexed at once and optimized, smaller than it was
    expect(indexBytes()).toBeLessThanOrEqual(ref * 1.01);
    expect(indexBytes()).toBeLessThan(bytes);
    expect(leafRows()).toBeLessThan(rows);
    ctx.app.deps.database.sqlite.prepare("INSERT INTO ads_fts (ads_fts, rank) VALUES ('integrity-check', 0)").run(); // throws on a damaged index
    for (const m of matchesByWord()) expect(m.found, m.word).toEqual(m.expected);
    // and search through the API still answers from it
    const res = await ctx.app.inject({ method: 'GET', url: '/api/search?query=harbor+violet&state=new-york&page=1' });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBeGreaterThan(0);
    // nothing left to merge
    expect((await runJob(ctx.app.deps, findJob('compact-search-index')!)).message).toBe('search index already merged');
  });

  it('waits for a transaction in progress instead of writing inside it', async () => {
    await postManyAds(300);
    const rows = leafRows();
    let job: Promise<JobReport> | undefined;
    await expect(
      ctx.app.deps.db.transaction().execute(async () => {
        job = compactSearchIndex(ctx.app.deps, new AbortController().signal);
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
        expect(leafRows()).toBe(rows); // nothing merged into this transaction
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await job)?.message).toMatch(/^search index merged: /);
    expect(leafRows()).toBeLessThan(rows);
  });

  it('stops when the run is aborted, leaving the index as it was', async () => {
    await postManyAds(60);
    const rows = leafRows();
    const controller = new AbortController();
    controller.abort();
    expect(await compactSearchIndex(ctx.app.deps, controller.signal)).toEqual({
      message: 'stopped after 0 merge steps of 64 pages',
      says: { code: 'cron.index_stopped', params: { count: 0, pages: 64 } },
    });
    expect(leafRows()).toBe(rows);
  });
});
