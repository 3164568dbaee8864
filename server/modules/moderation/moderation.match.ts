import { isIP } from 'node:net';
import { sql, type RawBuilder } from 'kysely';
import type { AppDeps } from '../../core/deps.ts';
import type { Executor } from '../../core/db.ts';
import { ipKey } from '../../core/ratelimit.ts';

/**
 * A staff search, read once: the whole text, its words, the digits of a phone number when it holds
 * one, and the network it names when it is an IP address or an IPv6 /64.
 */
export interface StaffQuery {
  text: string;
  words: string[];
  digits: string | null;
  ip: StaffIp | null;
}

/**
 * An address typed whole: `key` is its sign_ins.ip_key (ipKey: an IPv4 address itself, an IPv6 one
 * its /64); `exact` the one IPv6 address asked for (canonical), null when the whole /64 is (typed
 * "2001:db8:1:2::/64") or the address is IPv4.
 */
export interface StaffIp {
  key: string;
  exact: string | null;
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
  return { text, words, digits: digits.length >= 7 || (phoneLike && digits.length >= 4) ? digits : null, ip: parseIp(text) };
}

/** An IPv4 or IPv6 address (IPv4-mapped read as IPv4), or an IPv6 network written with /64; null for anything else. */
function parseIp(text: string): StaffIp | null {
  const net = /^(.+)\/64$/.exec(text);
  if (net) return isIP(net[1]) === 6 ? { key: ipKey(net[1]), exact: null } : null;
  const version = isIP(text);
  if (!version) return null;
  const key = ipKey(text);
  if (version === 4 || isIP(key) === 4) return { key, exact: null };
  // Node writes a peer's address canonically ("2001:db8::1", lower case, no leading zeros): so is the one typed.
  let exact = text;
  try {
    exact = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    // a zone ("fe80::1%eth0") is no URL host: as typed
  }
  return { key, exact };
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
 * `needle` inside `haystack`, case-insensitive for every letter as a JavaScript /…/iu regular
 * expression is (Unicode simple case folding: "ñ" finds "Ñ", "é" "É", "σ" "ς" and "Σ"), except
 * that ASCII letters match ASCII letters only (caseVariants); nothing typed is a pattern.
 * SQLite's LIKE folds ASCII letters only, and lower() too; a SQL function written in JavaScript
 * would run for every row, on every connection (the read worker's too). So:
 * - no letter LIKE cannot fold: LIKE alone, as fast as a bare scan (371 ms against 367 ms over a
 *   million ads' title and description; instr(lower()) took 705);
 * - such letters among three or more others ("señorita"): LIKE narrows the rows with each of them
 *   as any one character ("%se_orita%"), then GLOB, case-sensitive, reads the few left with each
 *   letter as the set of its cases ("*[sS][eE][ñÑ]…*");
 * - a short needle ("é", "ão"), where that LIKE would keep most rows (GLOB then reads them all
 *   again: 4 times slower): one LIKE per way to write it ("%é%" OR "%É%"), up to four.
 * `%`, `_`, `\` are escaped for LIKE, `*`, `?`, `[` for GLOB. A NUL would end either pattern
 * there ('%<NUL>%' is '%': every row): it becomes U+0001, which stored text never holds either
 * (contract/rules.ts drops control characters; addresses refuse them), so it finds nothing, as a
 * NUL does.
 */
export function containsText(haystack: RawBuilder<unknown>, needle: string): RawBuilder<boolean> {
  const escapeLike = (ch: string) => (/[\\%_]/.test(ch) ? `\\${ch}` : ch);
  const like = (pattern: string) => sql<boolean>`${haystack} LIKE ${`%${pattern}%`} ESCAPE '\\'`;
  // LIKE folds ASCII letters itself: a letter `folds` when it has other cases beyond them.
  const chars = [...needle.replace(/\0/g, '\u0001')].map((ch) => {
    const cases = caseVariants(ch);
    return { ch, cases, folds: cases.length > 1 && !/^[a-z]$/i.test(ch) };
  });
  const folding = chars.filter((c) => c.folds);
  if (!folding.length) return like(chars.map((c) => escapeLike(c.ch)).join(''));
  // Few letters LIKE can read (two or fewer: "é", "ão"), and few ways to write the others: one LIKE
  // each way ("%é%", "%É%"), each a fast scan, where the narrowing LIKE below would keep most rows.
  const spellings = folding.reduce((n, c) => n * c.cases.length, 1);
  if (chars.length - folding.length < 3 && spellings <= 4) {
    let patterns = [''];
    for (const c of chars) patterns = patterns.flatMap((p) => (c.folds ? c.cases : [c.ch]).map((x) => p + escapeLike(x)));
    return sql<boolean>`(${sql.join(patterns.map(like), sql` OR `)})`;
  }
  const narrow = chars.map((c) => (c.folds ? '_' : escapeLike(c.ch))).join('');
  const glob = chars.map((c) => (c.cases.length > 1 ? `[${c.cases.join('')}]` : /[*?[]/.test(c.ch) ? `[${c.ch}]` : c.ch)).join('');
  return sql<boolean>`(${like(narrow)} AND ${haystack} GLOB ${`*${glob}*`})`;
}

/** Each character with another case, and the characters toLowerCase/toUpperCase link it to either way; built on first use. */
let caseLinks: Map<string, Set<string>> | undefined;
/** caseVariants' answers so far. */
const caseClasses = new Map<string, string[]>();

/**
 * The characters a case-insensitive match takes for `ch`, itself first: those a /…/iu regular
 * expression of `ch` matches, except that an ASCII letter and another character are never one:
 * "k" does not find the Kelvin sign, nor "s" the long s ("ſ"), letters nobody types in an ad,
 * which LIKE cannot fold: every word with a k or an s would then be read twice in every row (LIKE
 * "%_i__%" for "kiss" keeps them all, GLOB reads them again: 4 to 5 times slower). Only single
 * characters: "ß" is not "SS" here, as in a regular expression. Found among the characters linked to `ch` by toLowerCase/toUpperCase (the Kelvin
 * sign lowers to "k", "ſ" uppercases to "S"), over the planes that hold letters with case (the
 * last, Adlam, ends at U+1E943): ~130,000 characters read once, 40–80 ms.
 */
export function caseVariants(ch: string): string[] {
  if (!caseLinks) {
    const links = new Map<string, Set<string>>();
    const link = (a: string, b: string) => {
      if (a === b || [...b].length !== 1) return;
      links.set(a, (links.get(a) ?? new Set()).add(b));
      links.set(b, (links.get(b) ?? new Set()).add(a));
    };
    for (let cp = 0; cp < 0x20000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      link(c, c.toLowerCase());
      link(c, c.toUpperCase());
    }
    caseLinks = links;
  }
  const known = caseClasses.get(ch);
  if (known) return known;
  const seen = new Set([ch]);
  for (const x of seen) for (const y of caseLinks.get(x) ?? []) seen.add(y);
  const same = new RegExp(`^${ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}$`, 'iu');
  const ascii = (x: string) => x < '\u0080';
  const cases = [...seen].filter((x) => same.test(x) && ascii(x) === ascii(ch));
  if (caseClasses.size < 10_000) caseClasses.set(ch, cases);
  return cases;
}

/**
 * The SQL condition of a staff search: the ad's id, or every word in its title or description,
 * or the phone's digits inside the ad's phone (stored E.164, "+12125550142") or the owner's, or
 * the text inside the owner's e-mail or nickname. Case-insensitive for every letter (containsText).
 */
export function staffMatch(q: StaffQuery, c: MatchColumns): RawBuilder<boolean> {
  const ref = (col: string) => sql.ref(col);
  const parts = [
    sql`${ref(c.id)} = ${q.text}`,
    ...adTextMatch(q, c),
    // Addresses are stored NFKC (normalizeEmail): an accent typed as a combining mark, or fullwidth
    // letters, still find them. NFKC can make capitals ("℡" is "TEL"): lowered again, as typed text is.
    containsText(ref(c.ownerEmail), q.text.normalize('NFKC').toLowerCase()),
    containsText(ref(c.ownerNickname), q.text),
  ];
  if (q.digits) parts.push(sql`instr(replace(coalesce(${ref(c.ownerPhone)}, ''), '+', ''), ${q.digits}) > 0`);
  return sql<boolean>`(${sql.join(parts, sql` OR `)})`;
}

/** Every word in the title or description; the phone's digits inside the phone. */
function adTextMatch(q: StaffQuery, c: { title: string; description: string; phone: string }): RawBuilder<boolean>[] {
  const text = sql`(${sql.ref(c.title)} || ' ' || ${sql.ref(c.description)})`;
  const everyWord = sql.join(
    q.words.map((w) => containsText(text, w)),
    sql` AND `,
  );
  const parts = [sql<boolean>`(${everyWord})`];
  if (q.digits) parts.push(sql<boolean>`instr(replace(${sql.ref(c.phone)}, '+', ''), ${q.digits}) > 0`);
  return parts;
}

/**
 * Everything a staff search finds an ad by, one condition for the search screen and the review
 * queue's and approved list's search boxes alike: its own row and its owner (staffMatch), its
 * edits and its owner's sign-ins (staffMatchBeyondAd). `ownerId` names the ad's owner_id column.
 */
export function staffMatchAd(q: StaffQuery, c: MatchColumns & { ownerId: string }): RawBuilder<boolean> {
  return sql<boolean>`(${staffMatch(q, c)} OR ${staffMatchBeyondAd(q, { adId: c.id, ownerId: c.ownerId })})`;
}

/**
 * What staff search finds beyond an ad's own row (`adId` and `ownerId` name its columns): an
 * edit of the ad waiting for review or refused (ad_revisions pending or rejected: a new phone or
 * new words a provider tried), matched as the ad's own text is; and, when the search is an IP
 * address or a /64, the ads of every account that signed in from it successfully (sign_ins).
 * Both are subqueries that do not depend on the ad: SQLite reads each once per search, and each
 * ad is then one lookup.
 */
export function staffMatchBeyondAd(q: StaffQuery, c: { adId: string; ownerId: string }): RawBuilder<boolean> {
  const revisions = sql`SELECT r.ad_id FROM ad_revisions r WHERE r.status IN ('pending', 'rejected')
    AND (${sql.join(adTextMatch(q, { title: 'r.title', description: 'r.description', phone: 'r.phone' }), sql` OR `)})`;
  const parts = [sql<boolean>`${sql.ref(c.adId)} IN (${revisions})`];
  if (q.ip) {
    const exact = q.ip.exact === null ? sql`` : sql` AND s.ip = ${q.ip.exact}`;
    parts.push(sql<boolean>`${sql.ref(c.ownerId)} IN (SELECT s.user_id FROM sign_ins s WHERE s.ip_key = ${q.ip.key} AND s.success = 1${exact})`);
  }
  return sql<boolean>`(${sql.join(parts, sql` OR `)})`;
}
