// The maintained list of words and phrases that suggest minors or coercion. An ad whose title or
// description contains one is refused with a clear message and the attempt is logged for staff
// (screening_log); the text is never rewritten. Add terms here (lower case, plain letters; the
// matcher lowercases, strips accents, undoes common digit-for-letter swaps and ignores
// punctuation between words). Review false positives in the screening log before removing one.

export const SCREENING_TERMS: readonly string[] = [
  // minors
  'underage', 'under age', 'under aged', 'minor', 'minors', 'teen', 'teens', 'teenage', 'teenager', 'teeny',
  'preteen', 'pre teen', 'tween', 'jailbait', 'jail bait', 'lolita', 'loli', 'schoolgirl', 'school girl', 'schoolgirls',
  'high school', 'highschool', 'middle school', 'junior high', 'child', 'children', 'kid', 'kids', 'little girl',
  'young girl', 'young girls', 'barely legal', 'just turned 18', 'barely 18', 'fresh 18', 'daddys little girl',
  'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen',
  'pedo', 'cp',
  // coercion and trafficking indicators
  'forced', 'no choice', 'cant leave', 'cannot leave', 'not allowed to leave', 'owned by', 'my owner', 'pimp',
  'my daddy will', 'must obey', 'trafficked', 'sold by', 'for sale girl', 'took my passport', 'passport taken',
  'pay off my debt', 'pay my debt', 'working off debt', 'quota', 'fresh off the boat', 'new girls every day',
  'drugged',
];

// Ages under 21 written as numbers: "17 yo", "19yrs", "20 years old", "16 y/o".
const UNDER_21 = /\b(?:[1-9]|1\d|20)\s*(?:yo|y o|yrs?|years? old|year old)\b/;

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '') // "daddy's" → "daddys", "can't" → "cant"
    .replace(/[^a-z0-9@$]+/g, ' ')
    .trim();
}

const deLeet = (s: string) => s.replace(/[0134578@$]/g, (c) => LEET[c] ?? c);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TERM_RES = SCREENING_TERMS.map((term) => ({ term, re: new RegExp(`(?:^| )${escape(term)}(?: |$)`) }));

/** The first screened term found in the text, or null. */
export function findScreenedTerm(text: string): string | null {
  const plain = normalize(text);
  const age = UNDER_21.exec(plain);
  if (age) return age[0];
  // Words only: digits stay digits in `plain` (so "18 yo" is an age), and turn to letters in the
  // de-leeted copy (so "t33n" is "teen"); spaced-out letters ("t e e n") are joined in the third.
  const leet = deLeet(plain);
  const joined = leet.replace(/\b(\w) (?=\w\b)/g, '$1');
  for (const { term, re } of TERM_RES) {
    if (re.test(plain) || re.test(leet) || re.test(joined)) return term;
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
