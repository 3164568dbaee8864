// The maintained list of words and phrases that suggest minors or coercion. An ad whose title or
// description contains one is refused with a clear message and the attempt is logged for staff
// (screening_log); the text is never rewritten. Add terms to SCREENING_TERMS (ads.screening.terms.ts; lower case, plain letters: Spanish
// and Portuguese ones without their accents, "niña" as "nina"; the matcher lowercases, strips
// accents and invisible characters, reads look-alike letters of other scripts, small capitals and
// stroked letters as Latin and a capital I as an l too ("IoIita"), reads other scripts' digits as ASCII ones, undoes common digit- and
// symbol-for-letter swaps, splits digits glued to a word and ignores punctuation between words and
// inside them; a phrase of several words is matched glued too, as in a hashtag, and glued words are
// cut where a capital starts one ("#SexyTeen"); a letter typed three times or more is read once and
// twice ("teeeen"), and a word cut into syllables is joined ("lo li ta", see SYLLABLE_TERMS). A word that is
// only screened in some wording ("forced to work", not "forced orgasms") goes in SCREENING_RULES
// instead. Mentions a disclaimer refuses ("no minors", "no atiendo menores de edad") are not
// matches (see NEGATED). Review false positives in the screening log before removing one.
//
// This file is the matcher; the age patterns are in ads.screening.ages.ts, SCREENING_RULES and the
// disclaimers in ads.screening.rules.ts, and the copies of the text it reads in ads.screening.readings.ts.

import { SPELLED_ALONE, UNDER_21 } from './ads.screening.ages.ts';
import { ageWords, fold, readings, spelledReadings } from './ads.screening.readings.ts';
import { SCREENING_RULES, capitalIAsL, unNegated } from './ads.screening.rules.ts';
import { SCREENING_TERMS } from './ads.screening.terms.ts';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Each term, and a phrase also glued into one word ("#barelylegal", "#littlegirl"); then the rules, each reporting what it matched. */
const TERM_RES = [
  ...SCREENING_TERMS.map((term) => ({ term, re: new RegExp(`(?<=^| )(?:${escape(term)}|${escape(term.replace(/ /g, ''))})(?= |$)`) })),
  ...SCREENING_RULES.map((rule) => ({ term: null, re: new RegExp(`(?<=^| )(?:${rule})(?= |$)`) })),
];

/**
 * The screened words that are one word, as posters cut them into syllables ("lo li ta", "un der
 * age", "te en"): matched only whole, on a run of two or more fragments of one to three letters, and
 * only against these (not the rules, "pedo" among them: Portuguese "no pé do ouvido" says no such
 * thing; nor words under four letters), so that "I am in LA at 5 on Fri" joins into nothing screened.
 */
const SYLLABLE_TERMS = new Map<string, string>();
for (const term of SCREENING_TERMS) {
  const glued = term.replace(/ /g, '');
  if (glued.length >= 4 && !SYLLABLE_TERMS.has(glued)) SYLLABLE_TERMS.set(glued, term); // "underage" before "under age"
}
/** Every beginning of a SYLLABLE_TERMS word: a run stops growing as soon as it spells none. */
const SYLLABLE_STARTS = new Set([...SYLLABLE_TERMS.keys()].flatMap((glued) => [...glued].map((_, n) => glued.slice(0, n + 1))));
const SYLLABLE_RE = /^[a-z]{1,3}$/;
/** The first screened word (SYLLABLE_TERMS) the text spells in fragments of up to three letters, the longest ("lolita", not "loli"), or null. */
function syllableTerm(text: string): string | null {
  const parts = text.split(' ');
  for (let i = 0; i < parts.length; i++) {
    let glued = parts[i]!;
    if (!SYLLABLE_RE.test(glued) || !SYLLABLE_STARTS.has(glued)) continue;
    let found: string | null = null;
    for (let j = i + 1; j < parts.length && SYLLABLE_RE.test(parts[j]!); j++) {
      glued += parts[j];
      if (!SYLLABLE_STARTS.has(glued)) break;
      found = SYLLABLE_TERMS.get(glued) ?? found;
    }
    if (found) return found;
  }
  return null;
}

/**
 * Spanish "niñas" (girls) written with its tilde: folded, it is "ninas", as "Nina's" is (the terms
 * have "las ninas", "unas ninas"). So an n that bears a mark ("ñ", "ň") is read as "ny" in copies of
 * its own, and "ninyas" is matched on them as the terms are, disguised ("n1ñas", "niñ@s", "nіñas"
 * with Cyrillic і, "#NiñasLindas").
 */
const MARKED_N_RE = /([nN])\p{M}+/gu;
const NINAS_RE = /(?<=^| )ny?inyas(?= |$)/;
/** Whether the text says "niñas", however disguised (see NINAS_RE). */
function saysNinas(text: string): boolean {
  const plain = text.normalize('NFKD');
  const marked = plain.replace(MARKED_N_RE, (_, n: string) => n + (n === 'N' ? 'Y' : 'y'));
  if (marked === plain) return false;
  const variants = readings(unNegated(fold(marked)), new Set<string>());
  const camel = marked.replace(/(\p{Ll})(?=\p{Lu})/gu, '$1 ');
  if (camel !== marked) readings(unNegated(fold(camel)), variants);
  for (const v of variants) if (NINAS_RE.test(v)) return true;
  return false;
}

/** The first screened term found in the text, or null. */
export function findScreenedTerm(text: string): string | null {
  const folded = fold(text);
  const ages = ageWords(folded);
  for (const re of UNDER_21) {
    const age = re.exec(ages);
    if (age) return age[0];
  }
  for (const v of spelledReadings(folded, ages)) {
    const age = SPELLED_ALONE.exec(v);
    if (age) return age[0];
  }
  // The terms are matched on copies of the text as written and, if it has a capital I, of the text
  // with capital I read as l (only for the terms: the ages are read on the text as written).
  if (saysNinas(text)) return 'ninas';
  const said = unNegated(folded);
  const variants = readings(said, new Set<string>());
  const asL = fold(text, true);
  if (asL !== folded) readings(capitalIAsL(said, asL), variants);
  // Capitals mark where glued words begin ("#TeenGirl", "NewTeenInTown"): the text cut there too.
  const camel = text.replace(/(\p{Ll})(?=\p{Lu})/gu, '$1 ');
  if (camel !== text) readings(unNegated(fold(camel)), variants);
  for (const { term, re } of TERM_RES) {
    for (const v of variants) {
      const hit = re.exec(v);
      if (hit) return term ?? hit[0];
    }
  }
  for (const v of variants) {
    const term = syllableTerm(v);
    if (term) return term;
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
