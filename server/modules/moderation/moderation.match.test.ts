import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { containsText, parseStaffQuery, staffMatch } from './moderation.match.ts';

// A staff search finds text with LIKE and GLOB (containsText): it must find exactly what a
// case-insensitive regular expression of the needle finds (/…/iu: Unicode simple case folding),
// ASCII letters matching ASCII letters only, for any text and anything typed.

const sqlite = new Database(':memory:');
const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database: sqlite }) });

/** The expected answer, character by character. */
function byRegExp(haystack: string, needle: string): boolean {
  const same = (h: string, n: string) => h < '\u0080' === n < '\u0080' && new RegExp(`^${n.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}$`, 'iu').test(h);
  const hs = [...haystack];
  const ns = [...needle];
  for (let i = 0; i + ns.length <= hs.length; i++) if (ns.every((n, j) => same(hs[i + j], n))) return true;
  return false;
}

// Letters SQLite folds (ASCII) and ones it does not (é/É, ñ/Ñ, ß/ẞ, σ/ς/Σ, ǅ/ǆ/Ǆ, the Kelvin sign,
// the long s, dotless ı, İ), LIKE's wildcards and escape, GLOB's, spaces, digits, a plus.
const alphabet = [
  'a',
  'A',
  'k',
  'K',
  's',
  'S',
  'é',
  'É',
  'ñ',
  'Ñ',
  'ß',
  'ẞ',
  'σ',
  'ς',
  'Σ',
  'ǅ',
  'ǆ',
  'Ǆ',
  'K',
  'ſ',
  'ı',
  'İ',
  'i',
  '%',
  '_',
  '\\',
  '*',
  '?',
  '[',
  ']',
  ' ',
  '1',
  '+',
  "'",
];
const text = (max: number) => fc.array(fc.constantFrom(...alphabet), { maxLength: max }).map((a) => a.join(''));

async function byLike(haystack: string, needle: string): Promise<boolean> {
  const r = await sql<{ m: number }>`SELECT ${containsText(sql.val(haystack), needle)} AS m`.execute(db);
  return r.rows[0].m === 1;
}

describe('containsText', () => {
  it('matches exactly what a case-insensitive regular expression of the needle matches, the needle lowered as typed text is', async () => {
    // Half of the needles are a piece of the haystack with its letters' case changed: found, mostly.
    const piece = fc.tuple(text(14), fc.nat(14), fc.nat(8), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 })).map(([haystack, from, length, upper]) => {
      const typed = [...haystack].slice(from, from + length).map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase()));
      return [haystack, typed.join('')] as const;
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.tuple(text(12), text(5)), piece), async ([haystack, typed]) => {
        const needle = typed.toLowerCase();
        expect(await byLike(haystack, needle)).toBe(byRegExp(haystack, needle));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds every letter in either case, accented capitals too', async () => {
    expect(await byLike('BELLA SEÑORITA ÉLÉGANTE', 'señorita')).toBe(true);
    expect(await byLike('BELLA SEÑORITA ÉLÉGANTE', 'élégante')).toBe(true);
    expect(await byLike('Ação', 'AÇÃO'.toLowerCase())).toBe(true);
    expect(await byLike('ÉTÉ', 'é')).toBe(true);
    expect(await byLike('ete', 'é')).toBe(false);
  });

  it('takes no wildcard from what is typed', async () => {
    expect(await byLike('50% off', '%')).toBe(true);
    expect(await byLike('50 off', '%')).toBe(false);
    expect(await byLike('a_b', '_')).toBe(true);
    expect(await byLike('ab', '_')).toBe(false);
    expect(await byLike('c:\\dir', '\\d')).toBe(true);
    expect(await byLike('c:dir', '\\d')).toBe(false);
    expect(await byLike('señor*', 'ñor*')).toBe(true);
    expect(await byLike('señora', 'ñor*')).toBe(false);
    expect(await byLike('anything', '\u0000')).toBe(false); // a NUL would end the pattern: '%' finds everything
    expect(await byLike('señora', 'ñ\u0000')).toBe(false);
  });
});

describe('staffMatch', () => {
  it('finds an address written with what NFKC turns into capitals ("℡" is "TEL"), as any typed text', async () => {
    sqlite.exec('CREATE TABLE IF NOT EXISTS people (id TEXT, title TEXT, description TEXT, phone TEXT, email TEXT, nickname TEXT, owner_phone TEXT)');
    sqlite.exec("DELETE FROM people; INSERT INTO people VALUES ('p1', 'Title', 'Words', '+12125550142', 'tel@example.com', 'Nick', NULL)");
    const find = async (typed: string) => {
      const where = staffMatch(parseStaffQuery(typed)!, {
        id: 'id',
        title: 'title',
        description: 'description',
        phone: 'phone',
        ownerEmail: 'email',
        ownerNickname: 'nickname',
        ownerPhone: 'owner_phone',
      });
      return (await sql<{ id: string }>`SELECT id FROM people WHERE ${where}`.execute(db)).rows.map((r) => r.id);
    };
    expect(await find('℡@EXAMPLE')).toEqual(['p1']);
    expect(await find('TITLE words')).toEqual(['p1']);
    expect(await find('nick')).toEqual(['p1']);
    expect(await find('5550142')).toEqual(['p1']);
    expect(await find('tel@example.org')).toEqual([]);
  });
});
