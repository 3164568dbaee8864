import { sql, type RawBuilder } from 'kysely';
import type { AppDeps } from '../../core/deps.ts';
import type { Executor } from '../../core/db.ts';

/** A staff search, read once: the whole text, its words, and the digits of a phone number when it holds one. */
export interface StaffQuery {
  text: string;
  words: string[];
  digits: string | null;
}

/**
 * Where a staff search runs: words and digits are matched inside the text of every ad in the
 * searched statuses (3–6 s at a million approved ads), so a search with any goes to the worker
 * thread's connection (Database_.offThread) and the server keeps answering everyone else.
 */
export function staffReads(deps: AppDeps, query: StaffQuery | null): Executor {
  return query ? deps.database.offThread : deps.db;
}

/** At most this many words are matched (the rest of a pasted paragraph is ignored). */
const MAX_WORDS = 10;

/**
 * Reads what staff typed. Phone digits count when the text is a phone number written any way
 * ("(212) 555-0142", "+1 212.555.0142", "5550142") or holds at least seven digits: four digits
 * alone in a sentence ("room 2024") are words, not a phone.
 */
export function parseStaffQuery(raw: string | undefined): StaffQuery | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  if (!text) return null;
  const words = [...new Set(text.split(' '))].slice(0, MAX_WORDS);
  const digits = text.replace(/\D/g, '');
  const phoneLike = /^[\d\s().+-]+$/.test(text);
  return { text, words, digits: digits.length >= 7 || (phoneLike && digits.length >= 4) ? digits : null };
}

/** The columns a match reads, as SQL references ('ads.title', 'users.email' …). */
export interface MatchColumns {
  id: string;
  title: string;
  description: string;
  phone: string;
  ownerEmail: string;
  ownerNickname: string;
  ownerPhone: string;
}

/**
 * `needle` (lower case) inside `haystack`, case-insensitive for ASCII letters as SQLite's lower()
 * is (neither folds other letters): the same rows as instr(lower(haystack), needle) > 0, without
 * lowering every row's text first, which doubled a scan of the ads (instr 705 ms, LIKE 371 ms, the
 * bare scan 367 ms, over a million ads' title and description). The needle's own `%`, `_` and
 * backslash are escaped: nothing typed is a pattern.
 */
export function containsText(haystack: RawBuilder<unknown>, needle: string): RawBuilder<boolean> {
  return sql<boolean>`${haystack} LIKE ${`%${needle.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`} ESCAPE '\\'`;
}

/**
 * The SQL condition of a staff search: the ad's id, or every word in its title or description,
 * or the phone's digits inside the ad's phone (stored E.164, "+12125550142") or the owner's, or
 * the text inside the owner's e-mail or nickname. Case-insensitive for ASCII (containsText).
 */
export function staffMatch(q: StaffQuery, c: MatchColumns): RawBuilder<boolean> {
  const ref = (col: string) => sql.ref(col);
  const text = sql`(${ref(c.title)} || ' ' || ${ref(c.description)})`;
  const everyWord = sql.join(
    q.words.map((w) => containsText(text, w)),
    sql` AND `,
  );
  const parts = [
    sql`${ref(c.id)} = ${q.text}`,
    sql`(${everyWord})`,
    // Addresses are stored NFKC (normalizeEmail): an accent typed as a combining mark, or fullwidth
    // letters, still find them. NFKC can make capitals ("℡" is "TEL"): lowered again, as typed text is.
    containsText(ref(c.ownerEmail), q.text.normalize('NFKC').toLowerCase()),
    containsText(ref(c.ownerNickname), q.text),
  ];
  if (q.digits) {
    parts.push(sql`instr(replace(${ref(c.phone)}, '+', ''), ${q.digits}) > 0`);
    parts.push(sql`instr(replace(coalesce(${ref(c.ownerPhone)}, ''), '+', ''), ${q.digits}) > 0`);
  }
  return sql<boolean>`(${sql.join(parts, sql` OR `)})`;
}
