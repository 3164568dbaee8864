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

import { SCREENING_TERMS } from './ads.screening.terms.ts';

/**
 * Spanish and Portuguese 13 to 19 in words, refused alone (SPELLED_ALONE); not "doce" (12), also
 * Portuguese for "sweet". With the everyday misspellings ("diesisiete", "dezesete", "dezeseis") and
 * cut in two ("dieci siete").
 */
const SPELLED_ES_PT =
  'trece|catorce|quince|die[csz]i ?(?:seis|siete|ocho|nueve)|diez y (?:seis|siete|ocho|nueve)|' +
  'treze|catorze|quatorze|quinze|de[zs][ea] ?(?:s?[sc](?:eis|ete)|nove)|de[zs] ?oito';
// Ages under 21, the youngest an ad may be (PRODUCT §5), as posters write them: in digits or in
// words. Small numbers in words are left out ("I am one of a kind"), and so is "twenty one".
const AGE_WORDS =
  'twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty(?! (?:one|two|three|four|five|six|seven|eight|nine)\\b)|' +
  `doce|${SPELLED_ES_PT}|veinte|doze|` +
  'vinte(?! e (?:um|uma|dois|duas|tres|quatro|cinco|seis|sete|oito|nove)\\b)';
const AGE = `(?:0?[1-9]|1\\d|20|${AGE_WORDS})`;
/**
 * After the number: a distance, a time, a size, a price, a count or "and over", not an age ("I am 15
 * minutes away", "tengo 10 años de experiencia"). `andUp`: "and up" too, a minimum ("aged 18 and
 * up"); after the poster's own age it is what she is up for ("I'm 17 and up for anything").
 */
const notAnAgeWords = (andUp: boolean) =>
  '(?:of|am|pm|h|hrs?|hours?|horas?|mins?|minutes?|minutos?|days?|dias?|nights?|noches|noites|weeks?|semanas?|months?|mos|mes|meses|' +
  'mi (?:from|away|out|off|to)|miles?|millas?|milhas?|km|kms|blocks?|cuadras?|quadras?|ft|feet|foot|pies|pes|inch|inches|cm|kg|lbs?|pounds?|' +
  `percent|por ciento|por cento|dollars?|dolares|usd|or (?:older|over|above)|and (?:${andUp ? 'up|' : ''}over|older|above)|y mas|o mas|ou mais|e mais|` +
  // a boast ("I'm 5 star rated", "I am 1 in a million", "10 out of 10", "chica 10 de 10", "garota 10
  // em tudo"); not "16 out of Miami", where she lives
  'stars?|out of (?:\\d+|ten|five|a hundred)|in an? (?:million|billion|thousand|hundred)|de (?:\\d+|diez)|em tudo|en todo|' +
  '(?:years?|yrs?) (?!of age\\b)(?:of|in|into|exp\\w*)|anos? (?!de (?:edad|idade)\\b)(?:de|en|no|na|em|trabajando|trabalhando))\\b';
/** As notAnAgeWords, and a number after the digits is not an age either ("10.00-22.00", "a 10/10"). */
const NOT_AN_AGE = `(?!\\s*(?:\\d|${notAnAgeWords(true)}))`;
/** As NOT_AN_AGE, after the poster's own age ("I'm", "tengo", "she's", "girl", "just turned"): "18+" (read "18 and over") and "or older" stay, "and up" not. */
const NOT_AN_OWN_AGE = `(?!\\s*(?:\\d|${notAnAgeWords(false)}))`;
/**
 * After "I'm" or "girl": a single digit followed by a word that is not an age word says no age ("I'm 4
 * real", "I'm 1 call away", "girl 2 girl", "I'm 1 on 1 only"); "I'm 9 yo" stays one. A rank ("I'm #1 in
 * town") never reaches AGE: ageWords keeps the "#" before its number.
 */
const SMALL_NUMBER_NOT_AN_AGE = '(?!\\d (?!(?:yo|y o|years?|yrs?|old|young|anos?|anitos|aninhos|primaveras)\\b)[a-z])';
/** Spanish and Portuguese months, after "de": "el quince de agosto", "Av. Quinze de Novembro" are dates, not ages. */
const MONTHS =
  'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|' +
  'janeiro|fevereiro|marco|maio|junho|julho|setembro|outubro|novembro|dezembro';
/** A number in digits or Spanish or Portuguese words, the other end of a range of days or hours ("del catorce al dieciocho"); not "un"/"uma" ("y una amiga"). */
const ES_PT_NUMBER =
  '(?:\\d+|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|veinte|veinti[a-z]+|treinta|treinta y [a-z]+|' +
  `duas|quatro|sete|oito|nove|dez|onze|doze|vinte|vinte e [a-z]+|trinta|trinta e [a-z]+|${SPELLED_ES_PT})`;
/** Before "N años": what makes it the clients' age or a length of time ("mayores de 18 años", "edad mínima 18 años", "hace 5 años", "experiencia de 5 años"). */
const NOT_OWN_YEARS =
  '(?<!\\b(?:mayores|maiores|menores|mayor|maior|menor|mas|mais|menos|hace|ha|faz|por|durante|partir|tras|apos|despues|depois|' +
  'cada|hasta|ate|ultimos|ultimas|estos|estes|esses|casi|quase|cerca|experiencia|minima|minimo) (?:(?:de|del|con|com|a|al|los|las|dos|os|ya|ja|unos|uns) ){0,2})';
/** After "N años": a length of time or the clients' age ("5 años de experiencia", "18 años o más"); "17 años de edad" stays an age. */
const YEARS_NOT_AN_AGE =
  '(?! (?:(?:de|en|no|na|em)(?! (?:edad|idade)\\b)|trabajando|trabalhando|atendiendo|atendendo|haciendo|fazendo|como|' +
  'o mas|ou mais|y mas|e mais|para arriba|pra cima|para cima|en adelante|em diante|o superior)\\b)';
/**
 * After "aged N" or "edad N": the clients' minimum age, "or more" and with years ("Gentlemen aged 18
 * years and over", "Clients aged 18 or more", "Edad: 18 años o más"); "18+" and "18 and up" are
 * NOT_AN_AGE. Only there: "I'm 17 or more" stays an age.
 */
const CLIENTS_MINIMUM =
  '(?! (?:(?:years?|yrs?) )?(?:or (?:older|over|above|more)|and (?:up|over|older|above))\\b' +
  '| (?:anos? )?(?:o mas|y mas|ou mais|e mais|o superior|para arriba|pra cima|para cima|en adelante|em diante)\\b)';
/**
 * After "tengo N" or "cumplí N": a plural noun is a count of things ("tengo 2 amigas", "tengo 2 más
 * amigas", "tem 3 quartos"); years, springs and the adverbs and conjunctions that end in "s" are
 * not ("tengo 17 nomás", "tenho 17 apenas", "tenho 16 mas…", "tengo 17 pues").
 */
const NOT_A_COUNT =
  '(?! (?!(?:anos|anitos|aninhos|primaveras|mas|nomas|apenas|pues|pos|pois|despues|depois|tambem|ademas|entonces|todavias|jajas|kkks?)\\b)[a-z]+s\\b| (?:mas|mais) [a-z]{2,}s\\b)';
/** After a number: "20 y tantos", "20 e poucos" (in her twenties, past 20), not an age under 21. */
const TWENTY_SOMETHING = '(?! (?:y|e) (?:tantos|tantas|pico|poucos|poucas|pocos|pocas|algo|algos)\\b)';
/** After the second number of a range of hours: its unit, glued or not ("de 19 a 23h", "de 12 a 8pm"). */
const HOUR_UNIT = '(?: ?(?:h|hs|hrs?|am|pm))?';
/** Spanish and Portuguese words a poster describes herself (or himself) with before "de N" ("morena de 17"). */
const ES_PT_PERSON =
  'chica|chico|chiquita|nena|nene|muchacha|muchacho|chava|chavita|chamaca|morena|morenita|morocha|rubia|rubiecita|guera|guerita|' +
  'triguena|pelirroja|flaca|flaquita|gordita|latina|latinita|colombiana|venezolana|mexicana|dominicana|cubana|boricua|' +
  'puertorriquena|peruana|hondurena|salvadorena|guatemalteca|ecuatoriana|argentina|paisa|brasilena|brasileira|brasileirinha|' +
  'senorita|mujer|mujercita|dama|nina|bebe|bebita|mami|mamacita|princesa|muneca|garota|garoto|menina|menino|moca|mocinha|' +
  'loira|loirinha|ruiva|gata|gatinha|gatita|gostosa|mulher|mulata|mulatinha|negra|negrinha|novinha|safada|putita|' +
  'linda|lindita|lindinha|bonita|bonitinha|hermosa|hermosura|preciosa|preciosura|bella|guapa|guapita|jovencita|joven|sexy|' +
  'gostosinha|caliente|traviesa|nueva|novata|nova';
/** Spanish and Portuguese for "just turned" (or "turn", "will turn"), before the age. */
const JUST_TURNED_ES_PT =
  'acabo de cumplir|acabo de hacer|recien cumplidos|recien cumplidas|ya cumpli|cumpli|cumplo|cumplire|voy a cumplir|' +
  'acabei de fazer|acabei de completar|acabo de fazer|acabo de completar|recem completados|recem feitos|completei|vou fazer|vou completar|fiz';
// Matched on a copy of the text in which commas, semicolons and the end of a sentence still stand
// between words ("Somos 2, yo y mi amiga" has no "2 yo" in it, "Hello gentlemen! I'm 17" no
// "gentlemen im") and "18+" and "+18" read "18 and over".
const UNDER_21: readonly RegExp[] = [
  // "17 yo", "20 years old", "19 years young", "16 y/o", "17 añitos"; not a time before Spanish
  // "yo" ("desde las 10 yo te espero", "de 10 a 12 yo estoy libre", "24/7 yo te espero"), nor
  // "and/or" between two lengths ("1 y/o 2 horas")
  new RegExp(
    `(?<!\\b(?:las|la) )(?!(?<=\\b\\d+ (?:a|al|hasta) )\\d+ yo (?!old\\b)[a-z]|(?<=\\b24 )7 yo (?!old\\b)[a-z])\\b${AGE}\\s*(?:yo|y o(?! \\d+ ?(?:h|hrs?|hours?|horas?|mins?|minutes?|minutos?|days?|dias?|nights?|noches)\\b)|(?:years?|yrs?) (?:old|young)|anitos|aninhos)\\b`,
  ),
  // "19yrs", "17 yrs, new"; not a career ("10 yrs experience", "over 15 yrs in the business",
  // "Experience: 10 yrs", "Licensed LMT 12 yrs", "Serving Houston 10 yrs") nor the clients' minimum
  // age ("aged 18 yrs and over")
  new RegExp(
    `(?<!\\b(?:over|for|than|after|past|last|about|almost|nearly|with|plus|since|experience|exp|experienced|business|industry|biz|` +
      `career|trade|hobby|profession|therapist|masseuse|masseur|lmt|lmp|cmt|practice|practicing|serving(?: [a-z]+){1,2}) )\\b${AGE}\\s*yrs?\\b` +
      `(?! (?:exp\\w*|in|of|on|at|as|with|doing|working|ago|now|professional|licensed|or (?:older|over|above|more)|and (?:up|over|older|above))\\b)`,
  ),
  // "I am 17", "I'm 19"; not "I'm 4 real", "I'm #1" or "I'm 2 blocks away"
  new RegExp(`\\b(?:i am|im)\\s*${SMALL_NUMBER_NOT_AN_AGE}${AGE}\\b${NOT_AN_OWN_AGE}`),
  // "Age: 17", "aged 17", "Gentlemen aged 17", "edad: 18", "idade 17"; not the clients' age: a
  // minimum ("minimum age 18", "Min. age 18", CLIENTS_MINIMUM) or a range ("gentlemen aged 18 to 80")
  new RegExp(
    `(?<!\\b(?:minimum|min)(?: ,)? )\\b(?:age|aged|edad|idade)\\s*${SMALL_NUMBER_NOT_AN_AGE}${AGE}\\b${NOT_AN_AGE}${CLIENTS_MINIMUM}(?! (?:to|thru|through|till|until) \\d)`,
  ),
  // "tengo 17", "tenho 17", "tengo diecisiete", "ella tiene 17", "ela tem 17", "tengo 17 nomás",
  // "tenho 16 mas…", "tengo apenas 17", "tenho só 17"; not a count of things ("tengo 2 amigas",
  // "tengo 3 días", "tem 2 quartos", "tengo 1 amiga")
  new RegExp(
    `\\b(?:tengo|tenho|tiene|tem)(?: (?:apenas|solo|so|nomas|recien|recem|ya|ja))?\\s*${SMALL_NUMBER_NOT_AN_AGE}${AGE}\\b${NOT_AN_OWN_AGE}${NOT_A_COUNT}`,
  ),
  // "17 años", "chica de 17 años", "tengo 17años", "tiene 16 años", "diecisiete años", "16
  // primaveras"; not the clients' age ("mayores de 18 años", "a partir de 18 años", "18 años o
  // más") or a career
  new RegExp(`${NOT_OWN_YEARS}\\b${AGE}\\s*(?:anos?|primaveras)\\b${YEARS_NOT_AN_AGE}`),
  // "morena de 17", "chica de 16", "garota de 16": the poster described, then her age; not a range
  // of hours or a date ("chica de 10 a 12", "de 15 de mayo"), nor the boast "chica de 10" (a
  // perfect 10), so from 12 in digits (the words are SPELLED_ALONE)
  new RegExp(
    `\\b(?:${ES_PT_PERSON}) de (?:1[2-9]|20|veinte|vinte(?! e [a-z]))\\b${NOT_AN_OWN_AGE}${NOT_A_COUNT}${TWENTY_SOMETHING}` +
      `(?! (?:de|del) (?:${MONTHS})\\b| (?:al|ao|a|y|e|hasta|ate)(?: (?:el|dia|o))? ${ES_PT_NUMBER}${HOUR_UNIT}\\b)`,
  ),
  // "she's 17", "he is 19", "girl 17", "chica 16", "garota 17"; not "girl 2 girl", "girl #1", "she is
  // 5 minutes away", "girls 18+", nor Portuguese "garota doce" (a sweet girl)
  new RegExp(`\\b(?:shes|she is|hes|he is|girl|boy|chica|chico|nena|garota|garoto|menina)\\s*${SMALL_NUMBER_NOT_AN_AGE}(?!doce\\b)${AGE}\\b${NOT_AN_OWN_AGE}`),
  // "just turned 19", "barely 19", "fresh 18", "sweet 16"; not text-speak ("sweet 4 u", "fresh 2 town")
  new RegExp(`\\b(?:just turned|barely|fresh|sweet)\\s*${SMALL_NUMBER_NOT_AN_AGE}${AGE}\\b${NOT_AN_OWN_AGE}`),
  // and in Spanish and Portuguese: "acabo de cumplir 17", "recién cumplidos los 17", "cumplí 16
  // ayer", "acabei de fazer 17", "17 recién cumplidos"; not "cumplo 2 fantasías", "fiz 3 tatuagens"
  new RegExp(`\\b(?:${JUST_TURNED_ES_PT})(?: (?:los|mis|os|meus))?\\s*${SMALL_NUMBER_NOT_AN_AGE}${AGE}\\b${NOT_AN_OWN_AGE}${NOT_A_COUNT}`),
  new RegExp(`\\b${AGE} (?:recien|recem) (?:cumplidos|completados|feitos)\\b`),
];
/**
 * Spanish and Portuguese spelled out alone, as the English words are (SCREENING_RULES): "Ana,
 * diecisiete, latina"; matched with UNDER_21, on the text as written (and its digits-for-letters and
 * spaced-out readings, see spelledReadings), so that a disclaimer's "menores de dieciocho" stays the
 * clients' age. Not "doce" (Portuguese "sweet"), "N años" (the rule above), an hour ("a las
 * diecisiete"), an address ("calle catorce", "Av. Quinze de Novembro") or a date or a range of them
 * ("el trece de mayo", "del catorce al dieciocho", "do dia quinze", "de diez a quince").
 */
const SPELLED_ALONE = new RegExp(
  `${NOT_OWN_YEARS}(?<!\\b(?:las|la|as|calle|rua|avenida|praca|(?:av|pca)(?: ,)?|piso|andar|numero|quarto|habitacion|suite|room|` +
    `el|del|dia|do|desde|hasta|ate|${ES_PT_NUMBER} (?:al|ao|a|y|e|hasta|ate)(?: (?:el|dia|o))?) )` +
    `\\b(?:${SPELLED_ES_PT})\\b(?!\\s*(?:anos?|primaveras)\\b)${NOT_AN_AGE}` +
    `(?! (?:de|del) (?:${MONTHS})\\b| (?:al|ao|a|y|e|hasta|ate)(?: (?:el|dia|o))? ${ES_PT_NUMBER}${HOUR_UNIT}\\b)`,
);

// Screened only in some wording: each pattern is matched on the words of the text (lower case, one
// space between words) and the words it matched are the screened term. Coercion is screened as the
// poster's own plight, not as what a client is promised ("you'll have no choice but to come back",
// "forced orgasms", "you must obey").
const NOT_TO_THE_CLIENT = '(?<!\\b(?:you|u|yall|youll|youd|youve|youre|ur)(?: will| would| ll| are| re)?(?: be| get| have| had| got)? )';
/** Before "forced": a negation, directly or through one auxiliary ("not forced", "nobody forced me", "never been forced", "no one has forced me"). */
const NOT_NEGATED =
  '(?<!\\b(?:not|never|nobody|no one|noone|nor|isnt|wasnt|arent|werent|aint)(?: (?:be|been|being|get|getting|got|gets|has|have|had|is|was|are|were|am|ever))? )';
/** Before the Spanish rule: "no estoy obligada", "nadie me obliga", "nunca fui obligada", "tampoco estoy obligada". */
const NOT_NEGATED_ES = '(?<!\\b(?:no|nunca|nadie|jamas|tampoco|ni)(?: (?:estoy|soy|fui|he sido|me siento|estamos|somos))? )';
/** Before "forcada": "não sou forçada", "nunca fui forçada", "ninguém me forçou" (the last is not a screened word). */
const NOT_NEGATED_PT = '(?<!\\b(?:nao|nunca|ninguem|jamais|nem)(?: (?:sou|estou|fui|sera|seja|esta|e|me sinto))? )';
/** A college minor's subject ("a minor in Spanish"), as opposed to a place ("minor in town"). */
const COLLEGE_SUBJECTS =
  'spanish|english|french|italian|german|portuguese|chinese|japanese|languages?|linguistics|literature|writing|journalism|' +
  'psychology|sociology|philosophy|anthropology|history|economics|business|finance|accounting|marketing|management|' +
  'communications?|education|nursing|biology|chemistry|physics|math|maths|mathematics|statistics|computer science|' +
  'political science|criminal justice|art|arts|art history|music|dance|theater|theatre|film|photography|design|fashion|' +
  'religion|religious studies|gender studies|womens studies';
/** Between "high school" and "teacher": who is taught, not who teaches ("high school student teaching you"). */
const SCHOOL_PUPIL =
  '(?:student|students|girl|girls|boy|boys|senior|seniors|junior|juniors|freshman|sophomore|grad|graduate|kid|kids|pupil|pupils|cheerleader|cheerleaders)';
export const SCREENING_RULES: readonly string[] = [
  // spelled out, read like the digits: "sixteen", "seventeen 36-24-36"; not "fifteen minutes",
  // "eighteen or older", "twelve hour"
  `(?:twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)(?! ${notAnAgeWords(true)})`,
  // not a minor fee, detail, change or issue, or a minor travel fee, nor a college minor ("a minor in
  // Spanish"; not "minor in town")
  'minor(?! (?:(?:travel|booking|parking|service|schedule|scheduling|outcall|incall|extra) )?(?:fees?|details?|changes?|charges?|issues?|costs?|surcharges?|adjustments?|extras?|repairs?|problems?|delays?|inconvenience)\\b)' +
    `(?! in (?:${COLLEGE_SUBJECTS})\\b)`,
  // not a teacher's or coach's career, the subject between ("high school English teacher", "middle
  // school teacher", "junior high math teacher"); still "high school student teaching you"
  `(?:high|middle) ?school(?! (?:(?!${SCHOOL_PUPIL}\\b)[a-z]+ ){0,2}(?:teachers?|teaching|coach|coaches|coaching)\\b)`,
  `junior ?high(?! (?:(?!${SCHOOL_PUPIL}\\b)[a-z]+ ){0,2}(?:teachers?|teaching|coach|coaches|coaching)\\b)`,
  // not "old school girl" (old-fashioned manners); "schoolgirl" is a term
  '(?<!\\bold )school girl',
  // not "I kid you not", "like a kid in a candy store"
  'kid(?! (?:you not|in a candy (?:store|shop))\\b)',
  // not Mexican Spanish "no hay pedo" (no problem), "qué pedo", "ni pedo"
  '(?<!\\b(?:hay|que|ni) )pedo',
  // "gatinha de menor" (Brazilian slang); not "de menor a mayor", "de menor precio"
  'de menor(?! (?:a|al|precio|precios|preco|precos|valor|costo|custo|tamano|tamanho|duracion|duracao|importancia|calidad|qualidade|' +
    'cantidad|quantidade|grado|grau|nivel|riesgo|risco|peso|altura|estatura|distancia|consumo|impacto|tiempo|tempo|numero|rango|porte)\\b)',
  // "I'm forced", "forced to work", "forced into this"; not "forced orgasms, forced feminization", nor
  // a disclaimer ("nobody forced me into this", "not forced to do anything", "never been forced")
  `${NOT_TO_THE_CLIENT}${NOT_NEGATED}(?:(?<=\\b(?:im|i am|am|was|were|are|is|be|been|being|get|got|gets|getting) )forced|forced(?= (?:to|into|me|us|her|them|by|from)\\b))`,
  `${NOT_TO_THE_CLIENT}no choice`,
  `${NOT_TO_THE_CLIENT}(?:cant|cannot|can not) leave`,
  `(?<!\\b(?:you|u|yall|slave|slaves|sub|subs|pet)(?: will)? )must obey`,
  // "I'm owned by", "owned by him"; not "newly owned by a licensed therapist" (a business)
  '(?<=\\b(?:im|i am|i was|we are|were|being|girls are|she is|shes) )owned by|owned by(?= (?:my|him|her|them|his|their|daddy|master|a man|a pimp|someone|me)\\b)',
  // "estoy obligada", "obligada a trabajar", "me obligan"; not "parada obligada" (a must-see stop),
  // nor a disclaimer ("no estoy obligada", "nadie me obliga", "nunca me obligaron a nada")
  `${NOT_NEGATED_ES}(?:(?<=\\b(?:estoy|soy|me siento|sigo|estamos|somos) )obligadas?|obligadas?(?= (?:a|por)\\b)|me obliga(?:n|ron|ba|ban)?)`,
  // Portuguese "forçada" (folded "forcada"), as "forced" is: not "não sou forçada", "ninguém me forçou"
  `${NOT_NEGATED_PT}forcadas?`,
];

// A disclaimer names what it refuses: "no minors", "no kids, no drama", "no pimp, no agency", "no
// atiendo menores de edad", "proibido para menores de idade", "sin proxenetas ni menores", "minors
// not allowed", "I refuse to see minors", "I don't have a pimp", "pimp-free", "minors will be
// reported", "do not contact me if you are a minor", "Underage? Don't even try", "schoolgirl outfit
// not available". Those mentions are blanked out before matching; the same words without a negation
// right next to them ("no drama, kids welcome", "minors ok") are still refused. Only these few
// words, only with nothing but spaces or a hyphen ("no-minors"), and one verb or preposition,
// between them and the negation.
const NEGATION =
  '(?:no one|noone|nobody|no|not|never|nor|dont|wont|ni|nem|sin|sem|nao|zero|prohibid[oa]s?|proibid[oa]s?|refuses? to|decline to)' +
  '(?: (?:se )?(?:atiend[eo]n?|atendo|atendem?|atendemos|acept[oa]n?|aceptamos|aceit[oa]m?|aceitamos|recib[eo]n?|recebo|recebem|permit[eo]n?|permitimos|' +
  'see|serve|accept|allow|meet|entertain|into))?' +
  '(?: (?:for|to|para|a))?';
/** A pimp the poster does not have: "I don't have a pimp", "never had a pimp", "without a pimp"; only a pimp ("never had a teen" is an offer). */
const NO_PIMP =
  '(?:no one|nobody|no|not|never|dont|doesnt|didnt|without)(?: (?:have|had|need|use|work with|worked with|work for|worked for))? (?:a |an |any )?' +
  '(?:pimps?|proxenetas?|cafetao|cafetoes)';
const NEGATED_AFTER =
  '(?:are |is )?(?:strictly |absolutely |totally )?(?:not (?:allowed|welcome|accepted|permitted)|prohibited|forbidden|no (?:permitidos|aceptados)|nao (?:permitidos|aceitos)|prohibidos|proibidos' +
  '|will be (?:reported|turned away|refused|turned down|rejected|blocked|banned|prosecuted))';
/** "if you are a minor", as a disclaimer words it: after "do not contact me", or before "leave". */
const IF_YOU_ARE = '(?:you are|youre|ur|u r|u are|you r) (?:a |an )?';
const NEGATABLE =
  '(?:minors?|underage|teens?|teenagers?|adolescentes?|kids?|child(?:ren)?|pimps?|menor(?:es)?|criancas?|proxenetas?|cafetao|cafetoes|schoolgirls?)';
const NEGATABLES = `${NEGATABLE}(?: (?:or|nor|and|ni|nem|o|ou|y|e) ${NEGATABLE})*`;
const NEGATED = new RegExp(
  `(?<![a-z0-9@$])(?:${NEGATION}[ -]${NEGATABLES}|${NO_PIMP}|${NEGATABLES} ${NEGATED_AFTER}|${NEGATABLES}[ -]free` +
    `|${NEGATABLES} (?:outfits?|roleplay|role play|costumes?|uniforms?|fantasy|fantasies) (?:is |are )?not (?:available|offered|provided)` +
    `|${NEGATABLES}[?!.]* (?:dont|do not) (?:even )?(?:try|bother)(?! to\\b)` +
    `|(?:dont|do not|never) (?:call|text|contact|message|email|book|see|visit)(?: me)? if ${IF_YOU_ARE}${NEGATABLES}` +
    `|if ${IF_YOU_ARE}${NEGATABLES},? (?:leave|go away|exit|close|turn back|dont|do not|please (?:leave|go|exit)))(?![a-z0-9@$])`,
  'g',
);
const NEGATABLE_RE = new RegExp(`(?<=^|[ -])${NEGATABLE}(?=[- ?!.,]|$)`, 'g');

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
function fold(text: string, capitalIAsL = false): string {
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

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Each term, and a phrase also glued into one word ("#barelylegal", "#littlegirl"); then the rules, each reporting what it matched. */
const TERM_RES = [
  ...SCREENING_TERMS.map((term) => ({ term, re: new RegExp(`(?<=^| )(?:${escape(term)}|${escape(term.replace(/ /g, ''))})(?= |$)`) })),
  ...SCREENING_RULES.map((rule) => ({ term: null, re: new RegExp(`(?<=^| )(?:${rule})(?= |$)`) })),
];

/** The text with the mentions a disclaimer refuses blanked out (see NEGATED), each letter by a space, so that it stays as long as the text. */
const unNegated = (folded: string) => folded.replace(NEGATED, (said) => said.replace(NEGATABLE_RE, (word) => ' '.repeat(word.length)));
/**
 * The text as unNegated left it, with an l wherever asL (the same text folded with capital I as l)
 * has one: the disclaimers stay those of the text as written ("NO ATIENDO MENORES DE EDAD" does not
 * become "atlendo", "Underage Is Not Allowed" does not become "ls"); then it is unNegated again,
 * so that "no chiIdren" passes as "no children" does.
 */
const capitalIAsL = (said: string, asL: string) => unNegated(said.replace(/i/g, (i, at: number) => (asL.charAt(at) === 'l' ? 'l' : i)));
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
const ageWords = (folded: string) =>
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
function spelledReadings(folded: string, ages: string): string[] {
  const leet = ageWords(folded.replace(MIXED_WORD_RE, deLeetMixed));
  return [ages, leet, joinLetters(leet)];
}

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
 * Adds to `into` the copies of the text the terms are matched on, words only: digits stay digits in
 * the plain copy (so "18 yo" is an age), and turn to letters in the de-leeted ones (so "t33n" is
 * "teen"); spaced-out letters ("t e e n") are joined too, and one copy keeps where clauses end (see
 * clauses). A "+" after a number ("18+") is not a letter.
 */
function readings(unNegatedText: string, into: Set<string>): Set<string> {
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

/** Spanish "niñas" (girls) written with its tilde: folded, it is "ninas", as "Nina's" is (the terms have "las ninas", "unas ninas"). */
const NINAS_RE = /(?<![\p{L}\p{N}])niñas(?![\p{L}\p{N}])/iu;

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
  if (NINAS_RE.test(text.normalize('NFC'))) return 'ninas';
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
