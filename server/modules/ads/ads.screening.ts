// The maintained list of words and phrases that suggest minors or coercion. An ad whose title or
// description contains one is refused with a clear message and the attempt is logged for staff
// (screening_log); the text is never rewritten. Add terms here (lower case, plain letters; the
// matcher lowercases, strips accents and invisible characters, reads Cyrillic and Greek
// look-alikes as Latin, undoes common digit-for-letter swaps and ignores punctuation between
// words and inside them). Review false positives in the screening log before removing one.

export const SCREENING_TERMS: readonly string[] = [
  // minors
  'underage',
  'under age',
  'under aged',
  'minor',
  'minors',
  'teen',
  'teens',
  'teenage',
  'teenager',
  'teeny',
  'preteen',
  'pre teen',
  'tween',
  'jailbait',
  'jail bait',
  'lolita',
  'loli',
  'schoolgirl',
  'school girl',
  'schoolgirls',
  'high school',
  'highschool',
  'middle school',
  'junior high',
  'child',
  'children',
  'kid',
  'kids',
  'little girl',
  'young girl',
  'young girls',
  'barely legal',
  'just turned 18',
  'barely 18',
  'fresh 18',
  'daddys little girl',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'pedo',
  'cp',
  // coercion and trafficking indicators
  'forced',
  'no choice',
  'cant leave',
  'cannot leave',
  'not allowed to leave',
  'owned by',
  'my owner',
  'pimp',
  'my daddy will',
  'must obey',
  'trafficked',
  'sold by',
  'for sale girl',
  'took my passport',
  'passport taken',
  'pay off my debt',
  'pay my debt',
  'working off debt',
  'quota',
  'fresh off the boat',
  'new girls every day',
  'drugged',
];

// Ages under 21 written as numbers: "17 yo", "19yrs", "20 years old", "16 y/o".
const UNDER_21 = /\b(?:[1-9]|1\d|20)\s*(?:yo|y o|yrs?|years? old|year old)\b/;

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

// Letters of other scripts drawn like Latin ones (after lower-casing): "tееn" with Cyrillic е
// reads as "teen" to everyone but a byte matcher. Only look-alikes; other letters stay as they are.
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  ı: 'i',
  α: 'a',
  β: 'b',
  γ: 'y',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
};
const LOOKALIKE_RE = new RegExp(`[${Object.keys(LOOKALIKES).join('')}]`, 'g');

/** Lower case, accents and invisible characters (soft hyphens, joiners, variation selectors) gone, look-alikes Latin. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .toLowerCase()
    .replace(LOOKALIKE_RE, (c) => LOOKALIKES[c])
    .replace(/['’`]/g, ''); // "daddy's" → "daddys", "can't" → "cant"
}

const words = (folded: string) => folded.replace(/[^a-z0-9@$]+/g, ' ').trim();
/** Punctuation glued inside a word goes ("te.en", "un-der-age"); punctuation next to a space still separates words. */
const squeeze = (folded: string) => words(folded.replace(/([a-z0-9@$])[^a-z0-9@$\s]+(?=[a-z0-9@$])/g, '$1'));
const deLeet = (s: string) => s.replace(/[0134578@$]/g, (c) => LEET[c] ?? c);
/** 1 stands for l as often as for i ("gir1", "1egal"). */
const oneAsL = (s: string) => deLeet(s.replace(/1/g, 'l'));
/** Spaced-out letters joined: "t e e n" → "teen". */
const joinLetters = (s: string) => s.replace(/\b(\w) (?=\w\b)/g, '$1');

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TERM_RES = SCREENING_TERMS.map((term) => ({ term, re: new RegExp(`(?:^| )${escape(term)}(?: |$)`) }));

/** The first screened term found in the text, or null. */
export function findScreenedTerm(text: string): string | null {
  const folded = fold(text);
  const plain = words(folded);
  const age = UNDER_21.exec(plain);
  if (age) return age[0];
  // Words only: digits stay digits in `plain` (so "18 yo" is an age), and turn to letters in the
  // de-leeted copies (so "t33n" is "teen"); spaced-out letters ("t e e n") are joined too.
  const squeezed = squeeze(folded);
  const variants = new Set([plain, deLeet(plain), joinLetters(deLeet(plain)), oneAsL(plain), squeezed, deLeet(squeezed), oneAsL(squeezed)]);
  for (const { term, re } of TERM_RES) {
    for (const v of variants) if (re.test(v)) return term;
  }
  return null;
}

export interface ScreeningHit {
  field: 'title' | 'description';
  term: string;
}

export function screenAd(title: string, description: string): ScreeningHit | null {
  const t = findScreenedTerm(title);
  if (t) return { field: 'title', term: t };
  const d = findScreenedTerm(description);
  if (d) return { field: 'description', term: d };
  return null;
}
