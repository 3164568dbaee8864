import type { ErrorCode } from './errors/index.ts';

// Validation rules shared by the server (which enforces them) and the client (which shows them
// before submit). Pure functions only: this file is imported by both sides. Each returns an
// i18n key of the 'validation' namespace when the value breaks a rule, or null when it is fine.

export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
export const NICKNAME_RE = /^[A-Za-z0-9_.-]{3,30}$/;
export const PROMO_CODE_RE = /^[A-Z0-9-]{4,32}$/;
export const TITLE_MIN = 10;
export const TITLE_MAX = 100;
export const DESCRIPTION_MIN = 50;
export const DESCRIPTION_MAX = 5000;
export const SEARCH_QUERY_MAX = 200;
/** A promo code's amount: 1 cent to $10,000. */
export const PROMO_MAX_CENTS = 1_000_000;
/** A price staff set (an ad's term, a bump): $10,000 at most; anything above is a typo. */
export const PRICE_MAX_CENTS = 1_000_000;
/** An ad's new photos together, per upload (PRODUCT §11); each is at most 10 MB. */
export const PHOTOS_TOTAL_MAX_MB = 60;

// Control characters (tab and line breaks aside) and format characters (\p{Cf}: zero-width
// spaces and joiners, soft hyphens, bidi controls, tags), which draw nothing: a title of them alone
// would show as a blank card and still pass the length rules. Three are kept where they are part of
// what a reader sees (KEPT_FORMAT), always beside visible characters, so they make no blank text.
// The ad screening reads the text without any of them (ads.screening.ts fold).
const KEPT_FORMAT = [
  // The tags after 🏴 naming a subdivision, and their end: a flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿 is 🏴 g b s c t end). Lower-case
  // letters and digits, as many as a subdivision code has: no hidden sentence rides along.
  String.raw`\u{1f3f4}[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]{3,7}\u{e007f}`,
  // A zero-width joiner between two emoji, which makes one emoji of them (🏳️‍⚧️ is 🏳 VS16 ZWJ ⚧ VS16,
  // 👨🏽‍💻 is 👨 🏽 ZWJ 💻). Anywhere else ("Sec\u200dond") it only hides inside a word.
  String.raw`(?<=\p{Extended_Pictographic}[\u{fe0f}\p{Emoji_Modifier}]?)\u200d(?=\p{Extended_Pictographic})`,
  // A zero-width non-joiner between two letters (marks after the first allowed), which Persian needs
  // inside words (می‌خواهم) and Indic scripts after a virama.
  String.raw`(?<=\p{L}\p{M}*)\u200c(?=\p{L})`,
].join('|');
const CONTROL = new RegExp(String.raw`(${KEPT_FORMAT})|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cf}]`, 'gu');
/** `v` without the characters CONTROL drops. Fillers must be spaces already: a joiner between fillers would join nothing visible. */
const dropControls = (v: string) => v.replace(CONTROL, (_, kept: string | undefined) => kept ?? '');
/** Letters that draw a blank (Hangul fillers, the Braille blank), often used as a space no site collapses: read as one. */
const FILLER = /[\u115f\u1160\u3164\uffa0\u2800]/g;

/**
 * A text's length as a reader counts it, in characters (code points): an emoji is one, where
 * String.length counts UTF-16 units and makes it two. The ad length rules (TITLE_MAX …) count this.
 */
export const charCount = (v: string): number => {
  let n = 0;
  for (const _ of v) n++;
  return n;
};

/** One line as stored (an ad's title): control, format and bidi characters out (KEPT_FORMAT's aside), fillers and runs of white space become one space. The length rules count this. */
export const cleanLine = (v: string) => dropControls(v.replace(FILLER, ' ')).replace(/\s+/g, ' ').trim();
/** Text as stored (an ad's description): line breaks kept (at most two in a row), control, format and bidi characters out (KEPT_FORMAT's aside), fillers a space. */
export const cleanText = (v: string) =>
  dropControls(v.replace(/\r\n?/g, '\n').replace(FILLER, ' '))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
// Simple and strict enough: one @, a dot in the domain, and no white space, control or format
// character anywhere (a zero-width space inside would make a second account that reads as the first),
// no half of a UTF-16 pair (stored, it would become U+FFFD: two addresses would be one), and none of
// the characters mail software reads as syntax (<>()[]\,;:"): nodemailer reads "x<other@example.net>"
// as other@example.net, so a reset link would go to an address other than the one stored and shown.
const EMAIL_CHAR = String.raw`[^\s@\p{Z}\p{Cc}\p{Cf}\p{Cs}<>()[\]\\,;:"]`;
const EMAIL_RE = new RegExp(`^${EMAIL_CHAR}+@${EMAIL_CHAR}+\\.${EMAIL_CHAR}+$`, 'u');
/** The domain of the placeholder address an erased account keeps (profile.repository.ts): nobody may take one. */
export const ERASED_EMAIL_DOMAIN = 'deleted.invalid';

export type RuleKey = keyof typeof RULE_CODES;

/**
 * An e-mail as accounts store and find it (sign-up, sign-in, reset, e-mail change, MASTER_EMAIL).
 * NFKC first: "josé" typed precomposed or as e + a combining accent, and "ｋｉｍ" in fullwidth
 * letters, are the same address to a reader (and to most mail servers), so they must be one
 * account, not two that look alike to staff. The forms check this form, not the text as typed.
 */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/**
 * The mailbox an address delivers to, for rules that give something once per person's inbox (the
 * welcome credit): normalizeEmail's form without a +tag in the local part (most providers deliver
 * ann+2@ to ann@), and for Gmail without dots in it and googlemail.com read as gmail.com (Gmail
 * ignores dots: a.n.n@gmail.com is ann@gmail.com). Accounts still register and sign in with the
 * address as written; this only says which addresses share an inbox.
 */
export function canonicalMailbox(email: string): string {
  const address = normalizeEmail(email);
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus); // "+tag@…" alone is no tag on a name: kept whole
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '') || local;
  return `${local}@${domain}`;
}

export function checkEmail(v: string): RuleKey | null {
  if (!v) return 'emailRequired';
  if (v.length > EMAIL_MAX || !EMAIL_RE.test(v)) return 'emailInvalid';
  return null;
}

/**
 * An address an account may newly take (sign-up, e-mail change): checkEmail's rules, and not an
 * erased account's placeholder. Its domain must also be written one way only, or one mailbox gets
 * two accounts: no empty label ("ann@example.com." has the root's dot, which SMTP refuses, RFC 5321
 * §4.1.2, and DNS reads as example.com), and no label in its xn-- form ("bo@xn--bcher-kva.de" is
 * bo@bücher.de as DNS and nodemailer send it). These are refused rather than rewritten: accounts
 * are found by the address as stored, so reading xn-- labels as Unicode would lock out an account
 * that signed up with them before. Sign-in and reset (checkEmail) still take both, so such an
 * account keeps working. The local part is a dot-atom (RFC 5322 §3.4.1): no dot first, last or
 * next to another (".ann", "ann.", "a..nn"), which relays refuse unquoted, so no mail would reach it.
 */
export function checkNewEmail(v: string): RuleKey | null {
  const bad = checkEmail(v);
  if (bad) return bad;
  const at = v.indexOf('@');
  if (v.slice(0, at).split('.').includes('')) return 'emailInvalid';
  const domain = v.slice(at + 1).toLowerCase();
  const labels = domain.split('.');
  if (labels.includes('') || domain === ERASED_EMAIL_DOMAIN) return 'emailInvalid';
  return labels.some((l) => l.startsWith('xn--')) ? 'emailEncodedDomain' : null;
}

export function checkPassword(raw: string, email?: string): RuleKey | null {
  // As the server hashes it (core/passwords.ts): NFC, so "é" typed as e + accent counts as typed the other way.
  const v = raw.normalize('NFC');
  // In characters as the ad rules count them (charCount): five emoji are five, not ten.
  const chars = charCount(v);
  if (chars < PASSWORD_MIN) return 'passwordTooShort';
  if (chars > PASSWORD_MAX) return 'passwordTooLong';
  // Half of a UTF-16 pair: the hash takes the password as UTF-8, where every such half becomes
  // U+FFFD, so passwords differing only there (and U+FFFD itself) would all be the same password.
  if (/\p{Cs}/u.test(v)) return 'passwordInvalid';
  if (email && passwordIsEmail(v, email)) return 'passwordIsEmail';
  return null;
}

/**
 * Whether a password reads as the address (checkPassword's last rule alone). An e-mail change asks
 * only this of the current password: the length rules may have changed since it was chosen.
 */
export function passwordIsEmail(raw: string, email: string): boolean {
  return raw.normalize('NFC').trim().toLowerCase() === email.trim().toLowerCase();
}

export function checkNickname(v: string): RuleKey | null {
  if (!NICKNAME_RE.test(v)) return 'nicknameInvalid';
  return null;
}

export function checkPromoCode(v: string): RuleKey | null {
  return PROMO_CODE_RE.test(v) ? null : 'promoCodeInvalid';
}

/**
 * Area codes of the North American plan (+1) that are not the United States' (its territories are):
 * Canada, then Bermuda and the Caribbean. A verification text there is an international one the
 * operator pays for (and a usual target of SMS pumping); the marketplace lists US places only.
 */
const NON_US_AREA_CODES = new Set(
  (
    '204 226 236 249 250 257 263 273 289 306 343 354 365 367 368 382 387 403 416 418 428 431 437 438 450 460 468 474 506 514 519 ' +
    '537 548 568 579 581 584 587 600 604 613 622 633 639 644 647 655 672 677 683 688 705 709 742 753 778 780 782 807 819 825 867 ' +
    '873 879 902 905 942 ' +
    '242 246 264 268 284 345 441 473 649 658 664 721 758 767 784 809 829 849 868 869 876'
  ).split(' '),
);

/**
 * US phone in E.164 (+1 and ten digits, area and exchange codes not starting with 0 or 1, the area
 * code neither another country's nor a service code such as 911).
 */
export function normalizeUsPhone(v: string): string | null {
  const digits = v.replace(/[\s().-]/g, '');
  const m = /^(?:\+?1)?([2-9]\d{2}[2-9]\d{6})$/.exec(digits);
  if (!m) return null;
  const area = m[1].slice(0, 3);
  if (NON_US_AREA_CODES.has(area) || area.endsWith('11')) return null;
  return `+1${m[1]}`;
}

/** A search holds at most this many distinct words: all are required, and none is ever dropped. */
export const SEARCH_WORDS_MAX = 8;
// Letters to JavaScript that SQLite's older Unicode tables read as separators (New Tai Lue vowel
// signs, two Vedic signs): a word is split there as the search index splits it.
const SEARCH_SEPARATORS = /[\u19b0-\u19c0\u19c8\u19c9\u1cf2\u1cf3]/g;
// A word as the search index (FTS5 unicode61, remove_diacritics 2) reads one: a letter, digit or
// private-use character, then more of them and of the accents unicode61 keeps inside a word (and
// folds away: these 25 of U+0300–U+0331). Any other combining mark ends the word, as it ends a
// token: the virama and vowel signs of Hindi and Thai, Arabic harakat, Hebrew points, the U+0336
// of strikethrough text.
const SEARCH_WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{Co}\u0300-\u0304\u0306-\u030c\u030f\u0311\u031b\u0323-\u0328\u032d\u032e\u0330\u0331]*/gu;

/**
 * The distinct words of a search, lower case, in the order typed, each one token of the search
 * index. Format characters (soft hyphen, zero-width space) are dropped, as they are from ads'
 * text, except the non-joiner, which splits a word as it does in the index. Composed (NFC), so
 * "ñ" typed either way is one word.
 */
export function searchWords(query: string): string[] {
  const text = query
    .normalize('NFC')
    .replace(/\u200c/g, ' ') // the non-joiner ads keep between letters (Persian): the index splits there too
    .replace(/\p{Cf}/gu, '')
    .replace(SEARCH_SEPARATORS, ' ')
    .toLowerCase();
  return [...new Set(text.match(SEARCH_WORD))];
}

/** `words`: searchWords(v), when the caller has them already. */
export function checkSearchQuery(v: string, words?: readonly string[]): RuleKey | null {
  const q = v.trim();
  if (!q) return 'searchRequired';
  if (q.length > SEARCH_QUERY_MAX) return 'searchTooLong';
  const n = (words ?? searchWords(q)).length;
  // Punctuation or symbols alone ("!!!", "😀") hold no word to search: the server refuses them as empty.
  if (n === 0) return 'searchRequired';
  if (n > SEARCH_WORDS_MAX) return 'searchTooManyWords';
  return null;
}

/** The error code the server answers when a value breaks a rule (English in contract/errors). */
export const RULE_CODES = {
  emailRequired: 'validation.email_required',
  emailInvalid: 'validation.email_invalid',
  emailEncodedDomain: 'validation.email_encoded_domain',
  passwordTooShort: 'validation.password_too_short',
  passwordTooLong: 'validation.password_too_long',
  passwordInvalid: 'validation.password_invalid',
  passwordIsEmail: 'validation.password_is_email',
  nicknameInvalid: 'validation.nickname_invalid',
  promoCodeInvalid: 'validation.promo_code_invalid',
  searchRequired: 'validation.search_required',
  searchTooLong: 'validation.search_too_long',
  searchTooManyWords: 'validation.search_too_many_words',
} as const satisfies Record<string, ErrorCode>;
