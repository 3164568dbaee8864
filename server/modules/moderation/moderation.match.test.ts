import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { containsText, parseStaffQuery, staffMatch } from './moderation.match.ts';

// A staff search finds text with LIKE (containsText): it must find exactly what the
// instr(lower(…)) it replaced found, for any text and anything typed.

const sqlite = new Database(':memory:');
const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database: sqlite }) });
const byInstr = sqlite.prepare('SELECT instr(lower(?), ?) > 0 AS m');

// Letters SQLite folds (ASCII) and ones it does not (é/É, ß/ẞ, the Kelvin sign, dotless ı, İ),
// LIKE's wildcards and escape, spaces, digits, a plus.
const alphabet = ['a', 'A', 'b', 'B', 'k', 'K', 'é', 'É', 'ß', 'ẞ', 'K', 'ı', 'İ', '%', '_', '\\', ' ', '1', '+', "'"];
const text = (max: number) => fc.array(fc.constantFrom(...alphabet), { maxLength: max }).map((a) => a.join(''));

async function byLike(haystack: string, needle: string): Promise<boolean> {
  const r = await sql<{ m: number }>`SELECT ${containsText(sql.val(haystack), needle)} AS m`.execute(db);
  return r.rows[0].m === 1;
}

describe('containsText', () => {
  it('matches exactly the rows instr(lower(haystack), needle) matched, the needle lowered as typed text is', async () => {
    await fc.assert(
      fc.asyncProperty(text(12), text(4), async (haystack, typed) => {
        const needle = typed.toLowerCase();
        const expected = (byInstr.get(haystack, needle) as { m: number }).m === 1;
        expect(await byLike(haystack, needle)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes no wildcard from what is typed', async () => {
    expect(await byLike('50% off', '%')).toBe(true);
    expect(await byLike('50 off', '%')).toBe(false);
    expect(await byLike('a_b', '_')).toBe(true);
    expect(await byLike('ab', '_')).toBe(false);
    expect(await byLike('c:\\dir', '\\d')).toBe(true);
    expect(await byLike('c:dir', '\\d')).toBe(false);
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
