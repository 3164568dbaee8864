import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';
import { checkSearchQuery, searchWords } from '../../../contract/rules.ts';
import { LISTING_TOTAL_CAP, SEARCH_TOTAL_CAP } from '../../../contract/api/listings.ts';

// The public search as a visitor types into it (GET /api/search), and the totals of searches and
// lists against the pages they serve.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
let logged: string;
beforeEach(async () => {
  logged = '';
  const stream = new Writable({
    write(chunk, _e, cb) {
      logged += String(chunk);
      cb();
    },
  });
  ctx = await createTestApp({ logger: { level: 'warn', stream } });
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url });
const search = (q: string, extra = '') => get(`/api/search?query=${encodeURIComponent(q)}${extra}`);
const idsOf = (res: { json: () => { ads: { id: string }[] } }) => res.json().ads.map((a) => a.id);

/** `n` more public copies of an ad (same words and place, newer bumps), written straight to the table. */
function copies(adId: string, n: number): void {
  const sqlite = ctx.app.deps.database.sqlite;
  const row = sqlite.prepare('SELECT * FROM ads WHERE id = ?').get(adId) as Record<string, unknown>;
  const cols = Object.keys(row);
  const insert = sqlite.prepare(`INSERT INTO ads (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
  sqlite.transaction(() => {
    for (let i = 1; i <= n; i++) insert.run({ ...row, id: `${adId}x${i}`, bump_seq: (row.bump_seq as number) + i });
  })();
}

/** The tokenizer ads_fts was last made with (migrations/sqlite), on a scratch FTS5 table: the tokens of a text, in order. */
function indexTokenizer(): { tokens: (text: string) => string[]; close: () => void } {
  const dir = path.resolve(import.meta.dirname, '../../../migrations/sqlite');
  let tokenize = '';
  for (const f of fs.readdirSync(dir).sort()) {
    const m = /CREATE VIRTUAL TABLE ads_fts USING fts5 \([^;]*tokenize = '([^']*)'/.exec(fs.readFileSync(path.join(dir, f), 'utf8'));
    if (m) tokenize = m[1];
  }
  expect(tokenize).toBe('unicode61 remove_diacritics 2');
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = '${tokenize}'); CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance');`);
  let id = 0;
  const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
  const terms = db.prepare('SELECT term FROM v WHERE doc = ? ORDER BY offset').pluck();
  return {
    tokens(text) {
      insert.run(++id, text);
      return terms.all(id) as string[];
    },
    close: () => db.close(),
  };
}

describe('search words', () => {
  // Each word a query is split into is exactly one token of the search index, as its tokenizer
  // (unicode61, remove_diacritics 2) reads the same text: a quoted word of several tokens would be
  // a phrase, which ads_fts (detail=column) refuses. Combining marks other than the accents
  // unicode61 keeps inside a word (virama and vowel signs, harakat, points, U+0336) split words.
  it('splits a query where the search index splits its text, and only there', () => {
    const fts = indexTokenizer();
    try {
      const texts = [
        'नमस्ते दुनिया',
        'สวัสดีครับ',
        'مَرحَبا بِكُم',
        'שָׁלוֹם עֲלֵיכֶם',
        'S\u0336a\u0336l\u0336e\u0336 today',
        'Tiê\u0301ng Vie\u0323\u0302t, São Paulo, n\u0303andu\u0301',
        'İstanbul ΘΕΣΣΑΛΟΝΊΚΗ',
        '한국어 か\u3099か カフェ',
        'x\u0488y a\u20ddb a\u0903b',
        '\u1980\u19b0\u1981 a\u1cf2b',
        'soft\u00adhyphen zero\u200bwidth',
        'a\ue000b 42nd',
      ];
      for (let c = 0x300; c <= 0x36f; c++) texts.push(`a${String.fromCodePoint(c)}b`);
      for (const text of texts) {
        const words = searchWords(text);
        // One token a word, and the same tokens as the text typed composed (NFC, as browsers send it;
        // format characters aside: ads' text keeps none but the non-joiner, tried below).
        expect(fts.tokens(words.join(' ')), `${text}: ${words.join(' ')}`).toHaveLength(words.length);
        expect(new Set(fts.tokens(words.join(' '))), text).toEqual(new Set(fts.tokens(text.normalize('NFC').replace(/\p{Cf}/gu, ''))));
      }
      // a Persian word with its non-joiner (ads keep it between letters) is the index's two tokens
      expect(searchWords('می\u200cخواهم')).toEqual(['می', 'خواهم']);
      expect(new Set(fts.tokens('می\u200cخواهم'))).toEqual(new Set(['می', 'خواهم']));
      expect(searchWords('नमस्ते')).toEqual(['नमस', 'त']);
      expect(searchWords('s\u0336a\u0336l\u0336e\u0336')).toEqual(['s', 'a', 'l', 'e']);
      expect(searchWords('Cafe\u0301 CAFÉ café')).toEqual(['café']);
    } finally {
      fts.close();
    }
  });

  // Every word is required and none is dropped: past 8 distinct words the query is refused (the
  // client's form says so before sending it); a word typed twice counts once.
  it('counts distinct words against the limit of 8', () => {
    expect(checkSearchQuery('one two three four five six seven eight')).toBeNull();
    expect(checkSearchQuery('one two three four five six seven eight ONE Two eight')).toBeNull();
    expect(checkSearchQuery('one two three four five six seven eight nine')).toBe('searchTooManyWords');
    // Strikethrough text is one word a letter, as the index reads it: s a l e t o d y, then x.
    expect(checkSearchQuery('s\u0336a\u0336l\u0336e\u0336 t\u0336o\u0336d\u0336a\u0336y\u0336')).toBeNull();
    expect(checkSearchQuery('s\u0336a\u0336l\u0336e\u0336 t\u0336o\u0336d\u0336a\u0336y\u0336 x')).toBe('searchTooManyWords');
  });
});

describe('public search', () => {
  // Any text a visitor types gets an answer (matches or none), never a 500: Hindi or Thai words,
  // Arabic with vowel marks, Hebrew with points and "strikethrough" text (letters + U+0336) hold
  // combining marks the index's tokenizer reads as separators; the query is split there too, and
  // finds the ads written that way.
  it('answers a query holding combining marks inside a word (Hindi, Thai, Arabic harakat, strikethrough), and finds the ads written so', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { title: 'S\u0336a\u0336l\u0336e\u0336 special नमस्ते tonight' });
    const statuses: Record<string, number> = {};
    for (const q of ['नमस्ते', 'สวัสดี', 'مَرحَبا', 'שָׁלוֹם', 's\u0336a\u0336l\u0336e\u0336']) statuses[q] = (await search(q)).statusCode;
    expect(statuses).toEqual({ नमस्ते: 200, สวัสดี: 200, مَرحَبا: 200, שָׁלוֹם: 200, 's\u0336a\u0336l\u0336e\u0336': 200 });
    expect(idsOf(await search('नमस्ते'))).toEqual([ad.id]);
    expect(idsOf(await search('s\u0336a\u0336l\u0336e\u0336 tonight'))).toEqual([ad.id]);
    expect(idsOf(await search('sale tonight'))).toEqual([]); // "S̶a̶l̶e̶" is indexed as s, a, l, e
  });

  // Should the index ever read a query otherwise than searchWords() (its tokenizer changed), a
  // refused full-text query answers no ads, logged as a warning, never a 500.
  it('answers a full-text query the index refuses with no ads and a warning', async () => {
    // The same index, its tokenizer also splitting words at "q": the quoted word "aqueduct" becomes a phrase.
    ctx.app.deps.database.sqlite.exec(`DROP TABLE ads_fts;
      CREATE VIRTUAL TABLE ads_fts USING fts5 (title, description, place, tags, content = '', contentless_delete = 1, detail = column,
        tokenize = 'unicode61 remove_diacritics 2 separators q')`);
    for (let i = 0; i < 2; i++) {
      const res = await search('aqueduct');
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { ads: [], total: 0, page: 1, pageSize: 20 } });
    }
    expect(logged.match(/full-text query refused/g)).toHaveLength(2); // kept nowhere: asked again, refused again
    expect(logged).toContain('phrase queries are not supported');
  });

  // Every word of the query is required (the search's rule: "all required"), so the eighth word
  // narrows the results like the first seven, a word typed twice counts once, and a ninth distinct
  // word is refused (400 validation.search_too_many_words) rather than silently dropped.
  it('requires every word, counts repeated words once, and refuses a ninth distinct word', async () => {
    const ad = await liveAd(ctx, owner, admin, ny); // "Elegant companion downtown" / "Friendly, discreet and punctual. Dinner dates and travel..."
    expect(idsOf(await search('elegant companion downtown friendly discreet punctual dinner dates'))).toEqual([ad.id]);
    expect(idsOf(await search('Elegant elegant companion downtown friendly discreet punctual dinner DATES dates'))).toEqual([ad.id]);
    expect(idsOf(await search('elegant companion downtown friendly discreet punctual dinner miami')), `ad ${ad.id} never mentions Miami`).toEqual([]);
    const res = await search('elegant companion downtown friendly discreet punctual dinner dates miami');
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 400,
      body: { code: 'validation.search_too_many_words', message: 'Search for at most 8 different words.', params: { field: 'query' } },
    });
  });

  // Search counts the newest SEARCH_TOTAL_CAP (200) matches only, a deliberate speed trade-off
  // (contract/api/listings.ts): with 205 matching ads the total says 200 (the client shows "200+"),
  // and every page it announces is served (10 of 20) while the next is refused.
  it('caps its total at 200 matches and serves every page up to it', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    copies(ad.id, 204);
    expect((await get('/api/listings')).json().total).toBe(205);
    const first = (await search('companion')).json();
    expect(first.total).toBe(SEARCH_TOTAL_CAP);
    const last = await search('companion', `&page=${Math.ceil(first.total / first.pageSize)}`);
    expect({ status: last.statusCode, n: last.json().ads.length }).toEqual({ status: 200, n: 20 });
    expect((await search('companion', '&page=11')).json()).toMatchObject({ code: 'listings.page_too_far' });
  });

  // A list's total and the pages it serves agree, so the pagination never links to a page that
  // does not exist: pages stop at 10,000 ads (LISTING_TOTAL_CAP) and so does the total (the client
  // shows "10,000+"); a list of 10,001 ads says 10,000, and its last page, 100 of 100, is served.
  it('never announces a listing total whose last page it refuses', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    copies(ad.id, 10_000);
    for (const url of ['/api/listings?pageSize=100', `/api/listings?state=new-york&city=${ny.citySlug}&type=female-escorts&pageSize=30`]) {
      const first = (await get(url)).json();
      expect(first.total, url).toBe(LISTING_TOTAL_CAP);
      const lastPage = Math.ceil(first.total / first.pageSize);
      const last = await get(`${url}&page=${lastPage}`);
      expect({ status: last.statusCode, n: last.json().ads.length, total: last.json().total }, url).toEqual({
        status: 200,
        n: Math.min(first.pageSize, 10_001 - (lastPage - 1) * first.pageSize), // 100 of 100; 11 of 30
        total: LISTING_TOTAL_CAP,
      });
      expect((await get(`${url}&page=${lastPage + 1}`)).json(), url).toMatchObject({ code: 'listings.page_too_far' });
    }
  });
});
