// The age patterns of screening (ads.screening.ts): an age under 21 as posters write it, in digits or in
// English, Spanish or Portuguese words, and what around a number says it is not one (a time, a distance,
// a count, a date, the clients' minimum age). Built once, at load.

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
export const notAnAgeWords = (andUp: boolean) =>
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
/** After 20 (only: "17 y pico" is seventeen-something): "20 y tantos", "20 e poucos" (in her twenties, past 20), not an age under 21. */
const TWENTY_SOMETHING = '(?! (?:y|e) (?:tantos|tantas|pico|poucos|poucas|pocos|pocas|algo|algos)\\b)';
/** After the second number of a range of hours: its unit, glued or not ("de 19 a 23h", "de 12 a 8pm"). */
const HOUR_UNIT = '(?: ?(?:h|hs|hrs?|am|pm))?';
/**
 * Spanish and Portuguese words a poster describes herself (or himself) or a companion with before "de
 * N" ("morena de 17", "tengo 1 amiga de 16"), also in the plural ("dos chicas de 17", "mujeres") and
 * with one word between ("garota doce de 16").
 */
const ES_PT_PERSON =
  'chica|chico|chiquita|nena|nene|muchacha|muchacho|chava|chavita|chamaca|morena|morenita|morocha|rubia|rubiecita|guera|guerita|' +
  'triguena|pelirroja|flaca|flaquita|gordita|latina|latinita|colombiana|venezolana|mexicana|dominicana|cubana|boricua|' +
  'puertorriquena|peruana|hondurena|salvadorena|guatemalteca|ecuatoriana|argentina|paisa|brasilena|brasileira|brasileirinha|' +
  'senorita|mujer|mujercita|dama|nina|bebe|bebita|mami|mamacita|princesa|muneca|garota|garoto|menina|menino|moca|mocinha|' +
  'loira|loirinha|ruiva|gata|gatinha|gatita|gostosa|mulher|mulata|mulatinha|negra|negrinha|novinha|safada|putita|' +
  'linda|lindita|lindinha|bonita|bonitinha|hermosa|hermosura|preciosa|preciosura|bella|guapa|guapita|jovencita|joven|sexy|' +
  'gostosinha|caliente|traviesa|nueva|novata|nova|' +
  // a companion she offers ("tengo 1 amiga de 16", "mi prima de 17")
  'amiga|amiguita|amiguinha|hermana|hermanita|prima|primita|sobrina|hija|hijita|irma|irmazinha|filha|filhinha|sobrinha|' +
  'companera|companheira|colega';
/** Spanish and Portuguese for "just turned" (or "turn", "will turn"), before the age. */
const JUST_TURNED_ES_PT =
  'acabo de cumplir|acabo de hacer|recien cumplidos|recien cumplidas|ya cumpli|cumpli|cumplo|cumplire|voy a cumplir|' +
  'acabei de fazer|acabei de completar|acabo de fazer|acabo de completar|recem completados|recem feitos|completei|vou fazer|vou completar|fiz';
// Matched on a copy of the text in which commas, semicolons and the end of a sentence still stand
// between words ("Somos 2, yo y mi amiga" has no "2 yo" in it, "Hello gentlemen! I'm 17" no
// "gentlemen im") and "18+" and "+18" read "18 and over".
export const UNDER_21: readonly RegExp[] = [
  // "17 yo", "20 years old", "19 years young", "16 y/o", "17 añitos"; not a time before Spanish
  // "yo" ("desde las 10 yo te espero", "de 10 a 12 yo estoy libre", "24/7 yo te espero"; a range
  // from "de"/"desde" only: "Room 5 a 16 yo girl" is an age), nor "and/or" between two lengths ("1
  // y/o 2 horas")
  new RegExp(
    `(?<!\\b(?:las|la) )(?!(?<=\\b(?:de|desde|from) \\d+ (?:a|al|hasta) )\\d+ yo (?!old\\b)[a-z]|(?<=\\b24 )7 yo (?!old\\b)[a-z])\\b${AGE}\\s*(?:yo|y o(?! \\d+ ?(?:h|hrs?|hours?|horas?|mins?|minutes?|minutos?|days?|dias?|nights?|noches)\\b)|(?:years?|yrs?) (?:old|young)|anitos|aninhos)\\b`,
  ),
  // "19yrs", "17 yrs, new"; not a career ("10 yrs experience", "over 15 yrs in the business",
  // "Experience: 10 yrs", "Licensed LMT 12 yrs", "Serving Houston 10 yrs") nor the clients' minimum
  // age ("aged 18 yrs and over"). A career word before the number says so only where the sentence
  // ends after it: "New masseuse 19 yrs petite", "serving Miami 19 yrs petite" are ages.
  new RegExp(
    `(?<!\\b(?:over|for|than|after|past|last|about|almost|nearly|with|plus|since) )` +
      `(?!(?<=\\b(?:experience|exp|experienced|business|industry|biz|career|trade|hobby|profession|therapist|masseuse|masseur|` +
      `lmt|lmp|cmt|practice|practicing|serving(?: [a-z]+){1,2}) )${AGE}\\s*yrs?(?: ,|$))\\b${AGE}\\s*yrs?\\b` +
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
  // "morena de 17", "chica de 16", "garota de 16", "amiga de 16", "dos chicas de 17", "garota doce
  // de 16": the poster or her companion described, then the age; not a range of hours, an hour or a
  // date ("chica de 10 a 12", "disponible de 12 en adelante", "de 15 de mayo"), nor the boast "chica
  // de 10" (a perfect 10), so from 12 in digits (the words are SPELLED_ALONE)
  new RegExp(
    `\\b(?:${ES_PT_PERSON})(?:s|es)? (?:(?!de\\b)[a-z]+ )?de (?:1[2-9]\\b|(?:20|veinte|vinte(?! e [a-z]))\\b${TWENTY_SOMETHING})${NOT_AN_OWN_AGE}${NOT_A_COUNT}` +
      `(?! (?:de|del) (?:${MONTHS})\\b| (?:al|ao|a|y|e|hasta|ate)(?: (?:el|dia|o))? ${ES_PT_NUMBER}${HOUR_UNIT}\\b` +
      `| (?:en adelante|em diante|del dia|de la (?:manana|tarde|noche|madrugada)|da (?:manha|tarde|noite|madrugada))\\b)`,
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
export const SPELLED_ALONE = new RegExp(
  `${NOT_OWN_YEARS}(?<!\\b(?:las|la|as|calle|rua|avenida|praca|(?:av|pca)(?: ,)?|piso|andar|numero|quarto|habitacion|suite|room|` +
    `el|del|dia|do|desde|hasta|ate|${ES_PT_NUMBER} (?:al|ao|a|y|e|hasta|ate)(?: (?:el|dia|o))?) )` +
    `\\b(?:${SPELLED_ES_PT})\\b(?!\\s*(?:anos?|primaveras)\\b)${NOT_AN_AGE}` +
    `(?! (?:de|del) (?:${MONTHS})\\b| (?:al|ao|a|y|e|hasta|ate)(?: (?:el|dia|o))? ${ES_PT_NUMBER}${HOUR_UNIT}\\b)`,
);
