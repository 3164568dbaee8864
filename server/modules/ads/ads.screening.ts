// The maintained list of words and phrases that suggest minors or coercion. An ad whose title or
// description contains one is refused with a clear message and the attempt is logged for staff
// (screening_log); the text is never rewritten. Add terms here (lower case, plain letters: Spanish
// and Portuguese ones without their accents, "niña" as "nina"; the matcher lowercases, strips
// accents and invisible characters, reads look-alike letters of other scripts, small capitals and
// stroked letters as Latin, undoes common digit- and symbol-for-letter swaps, splits digits glued
// to a word and ignores punctuation between words and inside them). Review false positives in the
// screening log before removing one.

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
  // minors, Spanish and Portuguese. Not "menor" alone ("menor precio", "mi hermana menor"), nor
  // "de menor" ("de menor a mayor"), nor "niña" alone: it folds to "nina", a name.
  'menor de edad',
  'menores de edad',
  'menor de idade',
  'menores de idade',
  'soy menor',
  'sou menor',
  'sou de menor',
  'menorzinha',
  'adolescente',
  'adolescentes',
  'colegiala',
  'colegialas',
  'colegial',
  'colegiales',
  'colegiais',
  'escuela secundaria',
  'ensino medio',
  'ninfeta',
  'ninfetas',
  'novinha',
  'novinhas',
  'jovencita',
  'jovencitas',
  'garotinha',
  'menininha',
  'una nina',
  'ninas',
  'ninita',
  'ninitas',
  'crianca',
  'criancas',
  'quinceanera',
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
  // coercion and trafficking, Spanish and Portuguese. Not "obrigada" (Portuguese for "thank you"),
  // nor "sin opción" ("sin opción a regateo"), nor "no puedo salir" (an ad that takes no outcalls).
  'traficada',
  'traficadas',
  'traficado',
  'obligada',
  'forzada',
  'forcada',
  'no tengo opcion',
  'no tengo otra opcion',
  'sin otra opcion',
  'nao tenho escolha',
  'nao tenho opcao',
  'sem outra escolha',
  'sem outra opcao',
  'no me dejan salir',
  'nao me deixam sair',
  'mi dueno',
  'meu dono',
  'proxeneta',
  'cafetao',
  'debo obedecer',
  'devo obedecer',
  'pagar mi deuda',
  'pagar minha divida',
  'me quitaron el pasaporte',
  'me quitaron mi pasaporte',
  'pasaporte retenido',
  'passaporte retido',
];

// Ages under 21, the youngest an ad may be (PRODUCT §5), as posters write them.
const AGE = '(?:0?[1-9]|1\\d|20)';
/** After the number: a distance, a time, a size, a price, a count or "and over", not an age ("I am 15 minutes away", "tengo 10 años de experiencia"). */
const NOT_AN_AGE =
  '(?!\\s*(?:\\d|of|am|pm|h|hrs?|hours?|horas?|mins?|minutes?|minutos?|mi (?:from|away|out|off|to)|miles?|millas?|milhas?|km|kms|blocks?|cuadras?|quadras?|ft|feet|foot|pies|pes|cm|kg|lbs?|pounds?|' +
  'percent|por ciento|por cento|dollars?|dolares|usd|or (?:older|over|above)|and (?:up|over|older|above)|y mas|o mas|ou mais|e mais|' +
  'anos? (?!de (?:edad|idade)\\b)(?:de|en|no|na|em|trabajando|trabalhando))\\b)';
const UNDER_21: readonly RegExp[] = [
  // "17 yo", "19yrs", "20 years old", "16 y/o", "17 añitos"
  new RegExp(`\\b${AGE}\\s*(?:yo|y o|yrs?|years? old|year old|anitos|aninhos)\\b`),
  // "Age: 17", "aged 17", "I am 17", "I'm 19", "edad: 18", "tengo 17", "tenho 17"
  new RegExp(`\\b(?:age|aged|edad|idade|i am|im|tengo|tenho)\\s*${AGE}\\b${NOT_AN_AGE}`),
  // "chica de 17 años", "menina de 17 anos", "com 17 anos"; not "mayores de 18 años" or "menores de
  // 18 años" (the clients' age), "hace 15 años" or "con 15 años de experiencia"
  new RegExp(
    `(?<!\\b(?:mayores|maiores|menores|mayor|maior|menor|mas|mais|menos|hace|ha|faz|por|durante) )\\b(?:de|con|com)\\s*${AGE}\\s*anos?\\b(?!\\s*(?:de|en|no|na|em)\\b(?!\\s*(?:edad|idade)\\b))`,
  ),
];

/** Digits and symbols posters type for letters. "!" and "|" count only inside a word (see leetWords). */
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '6': 'g', '7': 't', '9': 'g', '@': 'a', $: 's', '!': 'i', '|': 'i' };

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
  // Cherokee (its small letters, what toLowerCase makes of these, are the same shapes: added below)
  'Ꭰd Ꭱr Ꭲt Ꭵi Ꭹy Ꭺa Ꭻj Ꭼe Ꮃw Ꮇm Ꮋh Ꮍy Ꮐg Ꮒh Ꮓz Ꮟb Ꮢr Ꮤw Ꮥs Ꮩv Ꮪs Ꮮl Ꮯc Ꮲp Ꮶk Ꮷd Ᏻg Ᏼb',
  // Armenian
  'Սu Տs Օo աw գq զq հh ոn ռn սu ցg քf օo',
].join(' ');
const LOOKALIKES = new Map<string, string>();
for (const [letter, latin] of LOOKALIKE_PAIRS.split(' ').map((pair) => [...pair])) {
  LOOKALIKES.set(letter, latin);
  if (/[\u13a0-\u13f5]/.test(letter)) LOOKALIKES.set(letter.toLowerCase(), latin);
}
const LOOKALIKE_RE = new RegExp(`[${[...LOOKALIKES.keys()].join('')}]`, 'g');

/** Lower case, accents and invisible characters (soft hyphens, joiners, variation selectors) gone, look-alikes Latin. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .replace(LOOKALIKE_RE, (c) => LOOKALIKES.get(c)!) // before lower-casing (see LOOKALIKE_PAIRS)
    .toLowerCase()
    .replace(/['’`]/g, ''); // "daddy's" → "daddys", "can't" → "cant"
}

const words = (folded: string) => folded.replace(/[^a-z0-9@$]+/g, ' ').trim();
/** As words(), with "!" and "|" kept inside a word, where they stand for letters ("ch!ld", "k|ds"); elsewhere ("call me!") they are punctuation. */
const leetWords = (folded: string) =>
  folded
    .replace(/[!|]+/g, (run, at: number) => (/[a-z0-9@$]/.test(folded.charAt(at + run.length)) ? run : ' ')) // no lookahead: a long run would backtrack
    .replace(/[^a-z0-9@$!|]+/g, ' ')
    .trim();
/** Punctuation glued inside a word goes ("te.en", "un-der-age"); punctuation next to a space still separates words. */
const squeeze = (folded: string) => words(folded.replace(/([a-z0-9@$])[^a-z0-9@$\s]+(?=[a-z0-9@$])/g, '$1'));
const deLeet = (s: string) => s.replace(/[01345679@$!|]/g, (c) => LEET[c] ?? c);
/** 1 and | stand for l as often as for i ("gir1", "1egal", "|o|ita"). */
const oneAsL = (s: string) => deLeet(s.replace(/[1|]/g, 'l'));
/** Spaced-out letters joined: "t e e n" → "teen". */
const joinLetters = (s: string) => s.replace(/\b(\w) (?=\w\b)/g, '$1');
/** Digits glued to the end of a word split off ("teen18", "kid2", "t33n18"); those inside it stay, to be read as letters. */
const digitsOffEnd = (s: string) => s.replace(/(?<=[^\s\d])(\d+)(?= |$)/g, ' $1');
/** Digits glued to the start of a word split off ("18teen", "18t33n"). */
const digitsOffStart = (s: string) => s.replace(/(?<=^| )(\d+)(?=[^\s\d])/g, '$1 ');

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TERM_RES = SCREENING_TERMS.map((term) => ({ term, re: new RegExp(`(?:^| )${escape(term)}(?: |$)`) }));

/** The first screened term found in the text, or null. */
export function findScreenedTerm(text: string): string | null {
  const folded = fold(text);
  const plain = words(folded);
  for (const re of UNDER_21) {
    const age = re.exec(plain);
    if (age) return age[0];
  }
  // Words only: digits stay digits in `plain` (so "18 yo" is an age), and turn to letters in the
  // de-leeted copies (so "t33n" is "teen"); spaced-out letters ("t e e n") are joined too.
  const leet = leetWords(folded);
  const squeezed = squeeze(folded);
  const variants = new Set([plain, joinLetters(deLeet(leet))]);
  for (const v of [leet, squeezed]) {
    for (const w of [v, digitsOffEnd(v), digitsOffStart(v)]) variants.add(deLeet(w)).add(oneAsL(w));
  }
  variants.add(squeezed);
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
