// The copies of an ad's text that screening (ads.screening.ts) reads: folded (lower case, accents and
// invisible characters gone, look-alike letters and other scripts' digits read as Latin and ASCII),
// then as words, de-leeted, with spaced-out letters joined, cut into clauses, and the copy the age
// patterns read (ageWords).

/** Digits and symbols posters type for letters. "!", "|" and "+" count only inside a word (see leetWords). */
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '6': 'g',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'i',
  '+': 't',
};

// Letters drawn like Latin ones, each followed by the Latin letter it passes for: "tееn" with
// Cyrillic е reads as "teen" to everyone but a byte matcher. Capitals are read before lower-casing,
// as the capitals they look like: Greek Η and Ν are H and N, though their small η and ν pass for n
// and v. Only look-alikes; other letters stay as they are.
const LOOKALIKE_PAIRS = [
  // Cyrillic
  'Аa аa Вb вb Еe еe ёe Кk кk Мm мm Нh нh Оo оo Рp рp Сc сc Тt тt Уy уy Хx хx Ѕs ѕs Іi іi їi Јj јj Һh һh Ԁd ԁd Ԛq ԛq Ԝw ԝw Ӏi ӏi Үy үy',
  // Greek
  'Αa αa Βb βb γy Εe εe Ζz Ηh ηn Ιi ιi Κk κk Μm μu Νn νv Οo οo σo Ρp ρp Τt τt Υy υu Χx χx ωw Ϲc ϲc Ϳj ϳj',
  // Latin small capitals, and letters with a stroke or a bar (no accent to strip: ø is not o + a mark)
  'ᴀa ʙb ᴄc ᴅd ᴇe ꜰf ɢg ʜh ɪi ᴊj ᴋk ʟl ᴍm ɴn ᴏo ᴘp ʀr ꜱs ᴛt ᴜu ᴠv ᴡw ʏy ᴢz ɡg ıi',
  'Øo øo Łl łl Đd đd Ðd ðd Ŧt ŧt Ħh ħh Ƀb ƀb Ɨi ɨi Ƶz ƶz Ǥg ǥg Ɇe ɇe Ʉu ʉu Ɍr ɍr Ɏy ɏy Ȼc ȼc Ꝁk ꝁk Ƚl ƚl',
  // Latin letters with a hook or a tail, and the Latin alpha
  'Ƭt ƭt ʈt Ƙk ƙk Ɑa ɑa Ɓb ɓb Ƈc ƈc Ɗd ɗd ɛe Ƒf ƒf Ɠg ɠg ɦh ɩi ʝj Ɱm ɱm Ɲn ɲn ɵo Ƥp ƥp ʠq ɽr ʂs Ʋv ʋv Ƴy ƴy Ȥz ȥz',
  // Cherokee (its small letters, what toLowerCase makes of these, are the same shapes: added below)
  'Ꭰd Ꭱr Ꭲt Ꭵi Ꭹy Ꭺa Ꭻj Ꭼe Ꮃw Ꮇm Ꮋh Ꮍy Ꮐg Ꮒh Ꮓz Ꮟb Ꮢr Ꮤw Ꮥs Ꮩv Ꮪs Ꮮl Ꮯc Ꮲp Ꮶk Ꮷd Ᏻg Ᏼb',
  // Armenian
  'Սu Տs Օo աw գq զq հh ոn ռn սu ցg քf օo',
  // Lisu: its letters are drawn as Latin capitals (ꓔꓰꓰꓠ is TEEN); ꓲ is an I, read as l too (see CAPITAL_I_RE)
  'ꓐb ꓑp ꓒd ꓓd ꓔt ꓖg ꓗk ꓙj ꓚc ꓜz ꓝf ꓟm ꓠn ꓡl ꓢs ꓣr ꓦv ꓧh ꓪw ꓫx ꓬy ꓮa ꓰe ꓲi ꓳo ꓴu',
  // Coptic, capitals and their small forms (drawn as small capitals: ⲧⲉⲉⲛ reads teen)
  'Ⲁa ⲁa Ⲃb ⲃb ⲅr Ⲉe ⲉe Ⲍz ⲍz Ⲏh ⲏh Ⲓi ⲓi Ⲕk ⲕk Ⲙm ⲙm Ⲛn ⲛn Ⲟo ⲟo Ⲣp ⲣp Ⲥc ⲥc Ⲧt ⲧt Ⲩy ⲩy Ⲭx ⲭx Ⲱw ⲱw Ⳑl ⳑl',
].join(' ');
const LOOKALIKES = new Map<string, string>();
for (const [letter, latin] of LOOKALIKE_PAIRS.split(' ').map((pair) => [...pair])) {
  LOOKALIKES.set(letter, latin);
  if (/[\u13a0-\u13f5]/.test(letter)) LOOKALIKES.set(letter.toLowerCase(), latin);
}
const LOOKALIKE_RE = new RegExp(`[${[...LOOKALIKES.keys()].join('')}]`, 'g');

/**
 * A decimal digit of another script (Arabic-Indic ١٧, Devanagari १७, …) as the ASCII digit it is:
 * Unicode lays out each script's digits as a run of ten from its zero (NFKD maps only the
 * fullwidth and mathematical ones).
 */
const OTHER_DIGIT_RE = /(?![0-9])\p{Nd}/gu;
const isDigit = (cp: number) => /\p{Nd}/u.test(String.fromCodePoint(cp));
function asciiDigit(c: string): string {
  const cp = c.codePointAt(0)!;
  let zero = cp;
  while (isDigit(zero - 1)) zero--;
  return String((cp - zero) % 10);
}

/** Letters in black circles and squares (🅣, 🆃): NFKD leaves them, unlike Ⓣ and 🄣. */
const ENCLOSED_RE = /[\u{1f150}-\u{1f169}\u{1f170}-\u{1f189}]/gu;

/**
 * A capital I, and the letters drawn like it (Cyrillic І Ӏ ӏ, Greek Ι, Coptic Ⲓ, Lisu ꓲ): in a
 * sans-serif font it is the same stroke as a small l, so "IoIita" and "chiId" read lolita and child.
 * Lower-casing makes it an i, so it is read as l in a copy of its own (see findScreenedTerm).
 */
const CAPITAL_I_RE = /[IІӀӏΙⲒꓲ]/g;

/**
 * Lower case, accents and invisible characters (soft hyphens, joiners, variation selectors) gone,
 * look-alikes Latin, one space between words; with capitalIAsL, capital I as l. Both copies are
 * as long as each other, letter for letter, and differ only where a capital I stood.
 */
export function fold(text: string, capitalIAsL = false): string {
  const shapes = text
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .replace(OTHER_DIGIT_RE, asciiDigit)
    .replace(ENCLOSED_RE, (c) => String.fromCharCode(97 + ((c.codePointAt(0)! - 0x1f150) % 32)));
  return (capitalIAsL ? shapes.replace(CAPITAL_I_RE, 'l') : shapes)
    .replace(LOOKALIKE_RE, (c) => LOOKALIKES.get(c)!) // before lower-casing (see LOOKALIKE_PAIRS)
    .toLowerCase()
    .replace(/['’`]/g, '') // "daddy's" → "daddys", "can't" → "cant"
    .replace(/\s+/g, ' ');
}

const words = (folded: string) => folded.replace(/[^a-z0-9@$]+/g, ' ').trim();
/** As words(), with "!", "|" and "+" kept before a letter or digit, where they stand for letters ("ch!ld", "k|ds", "+33n"); elsewhere ("call me!") they are punctuation. */
const leetWords = (folded: string) =>
  folded
    .replace(/[!|+]+/g, (run, at: number) => (/[a-z0-9@$]/.test(folded.charAt(at + run.length)) ? run : ' ')) // no lookahead: a long run would backtrack
    .replace(/[^a-z0-9@$!|+]+/g, ' ')
    .trim();
/** Punctuation glued inside a word goes ("te.en", "un-der-age"); punctuation next to a space still separates words. */
const squeeze = (folded: string) => words(folded.replace(/([a-z0-9@$])[^a-z0-9@$\s]+(?=[a-z0-9@$])/g, '$1'));
const deLeet = (s: string) => s.replace(/[013456789@$!|+]/g, (c) => LEET[c] ?? c);
/** 1 and | stand for l as often as for i ("gir1", "1egal", "|o|ita"). */
const oneAsL = (s: string) => deLeet(s.replace(/[1|]/g, 'l'));
/**
 * As words(), with a "," standing where a clause or sentence ends: a negation does not reach across
 * it ("No, me obligan a trabajar"), nor across an ellipsis ("No... me obligan a trabajar"). This copy
 * only adds refusals (words() has none of these commas), so a pause reads as a break here, unlike in
 * ageWords.
 */
const clauses = (folded: string) =>
  folded
    .replace(/[,;:!?]|\.(?!\d)/g, ' , ')
    .replace(/[^a-z0-9@$,]+/g, ' ')
    .trim();
/** Spaced-out letters joined: "t e e n" → "teen". */
const joinLetters = (s: string) => s.replace(/\b(\w) (?=\w\b)/g, '$1');
/** A letter typed three times or more, once and twice: "teeeen" → "ten" and "teen", "lolitaaa" → "lolita". */
const STRETCHED_RE = /([a-z])\1{2,}/g;
/** Digits glued to the end of a word split off ("teen18", "kid2", "t33n18"); those inside it stay, to be read as letters. */
const digitsOffEnd = (s: string) => s.replace(/(?<=[^\s\d])(\d+)(?= |$)/g, ' $1');
/** Digits glued to the start of a word split off ("18teen", "18t33n"). */
const digitsOffStart = (s: string) => s.replace(/(?<=^| )(\d+)(?=[^\s\d])/g, '$1 ');

/**
 * A pause, not the end of a sentence: a run of two or more dots ("…" is three once folded), except
 * after a number that its years do not follow ("I'm 17... 5'2", "Somos 2... yo y mi amiga" end a
 * sentence there). ageWords reads it as a space, so that "I'm... 17", "Edad… 17" and "17... años"
 * stay ages.
 */
const ELLIPSIS_RE = /(?<![\d.]\s*)\.(?:\s*\.)+|(?<=\d\s*)\.(?:\s*\.)+(?=\s*(?:years?|yrs?|anos?|anitos|aninhos|primaveras)\b)/g;
/**
 * A decimal comma, as Spanish and Portuguese write a height or a size ("1,60 de estatura", "1,55 m",
 * "20,5 cm"): after a single digit, or before a unit. Not after a two-digit number otherwise: "I'm
 * 17,5'2" is an age and a height.
 */
const DECIMAL_COMMA_RE = /(?<=(?<!\d)\d),(?=\d)|(?<=\d),(?=\d+ ?(?:m|mts?|metros?|cm|kg|kgs|kilos?|lbs?)\b)/g;
/**
 * The text as the age patterns read it: words, a comma where a clause or sentence ends (not the
 * point of "10.00", a decimal comma, see DECIMAL_COMMA_RE, the colon of "Age: 17" nor most ellipses,
 * see ELLIPSIS_RE), "18+" and "+18" as "18 and over", "&" as "and", a "#" kept before a number (a
 * rank, "#1").
 */
export const ageWords = (folded: string) =>
  folded
    .replace(DECIMAL_COMMA_RE, '.')
    .replace(/(\d) ?\+/g, '$1 and over ')
    .replace(/\+ ?(\d+)/g, '$1 and over ')
    .replace(/&/g, ' and ')
    .replace(ELLIPSIS_RE, ' ')
    .replace(/[;!?]|\.(?!\d)/g, ',')
    .replace(/(?:[^a-z0-9@$,#]|#(?!\d))+/g, ' ')
    .replace(/ ?,[ ,]*/g, ' , ')
    .trim();

/** A word with digits or symbols for letters ("d1ec1s1ete", "d3z3ss3t3"), read as letters; numbers ("17", "18+") and a "!" or "|" that ends a word ("Hola!") stay. */
const MIXED_WORD_RE = /[a-z0-9@$!|+]+/g;
function deLeetMixed(word: string): string {
  if (!/[a-z]/.test(word)) return word;
  let end = word.length;
  while (end > 0 && '!|+'.includes(word.charAt(end - 1))) end--;
  const core = word.slice(0, end);
  return /[0-9@$!|+]/.test(core) ? deLeet(core) + word.slice(end) : word;
}
/**
 * The copies of the text SPELLED_ALONE reads, as the English words are read on the de-leeted and
 * letter-joined copies (see readings): the age copy, and that copy with digits for letters read as
 * letters and spaced-out letters joined ("d i e c i s i e t e").
 */
export function spelledReadings(folded: string, ages: string): string[] {
  const leet = ageWords(folded.replace(MIXED_WORD_RE, deLeetMixed));
  return [ages, leet, joinLetters(leet)];
}

/**
 * Adds to `into` the copies of the text the terms are matched on, words only: digits stay digits in
 * the plain copy (so "18 yo" is an age), and turn to letters in the de-leeted ones (so "t33n" is
 * "teen"); spaced-out letters ("t e e n") are joined too, and one copy keeps where clauses end (see
 * clauses). A "+" after a number ("18+") is not a letter.
 */
export function readings(unNegatedText: string, into: Set<string>): Set<string> {
  const said = unNegatedText.replace(/(\d) ?\+/g, '$1 ');
  const leet = leetWords(said);
  const squeezed = squeeze(said);
  into
    .add(words(said))
    .add(clauses(said))
    .add(joinLetters(deLeet(leet)));
  for (const v of [leet, squeezed]) {
    for (const w of [v, digitsOffEnd(v), digitsOffStart(v)]) into.add(deLeet(w)).add(oneAsL(w));
  }
  into.add(squeezed);
  // stretched letters, in every copy: "teeeen", "t333n", "lolitaaa"
  for (const v of [...into]) {
    if (v.search(STRETCHED_RE) >= 0) into.add(v.replace(STRETCHED_RE, '$1')).add(v.replace(STRETCHED_RE, '$1$1'));
  }
  return into;
}
