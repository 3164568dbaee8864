// The screened words that are only screened in some wording (SCREENING_RULES), and the disclaimers
// whose mentions are not matches (NEGATED), blanked out of the text before the terms and rules are
// matched on it (ads.screening.ts). The words screened wherever they stand are ads.screening.terms.ts.

import { notAnAgeWords } from './ads.screening.ages.ts';

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
/** After a subject: a place or a class, not a college minor ("minor in Spanish Harlem", "minor in art class"). */
const MINOR_IN_A_PLACE =
  'harlem|class|classes|classroom|school|town|city|area|neighborhood|neighbourhood|quarter|village|barrio|lesson|lessons|club|camp|' +
  'room|uniform|uniforms|outfit|student|students|girl|girls|boy|boys|teen|teens|kid|kids';
/** Between "high school" and "teacher": who is taught, not who teaches ("high school student teaching you"). */
const SCHOOL_PUPIL =
  '(?:student|students|girl|girls|boy|boys|senior|seniors|junior|juniors|freshman|sophomore|grad|graduate|kid|kids|pupil|pupils|cheerleader|cheerleaders)';
/**
 * After "teacher" or "coach": a pupil ("teacher's pet", folded "teachers pet", "teacher's favorite
 * student"), not the poster's career. "teachers" is also the possessive folded: followed by a word
 * it is not the career either ("high school teacher's little helper"), only the plural at the text's
 * end ("we are high school teachers").
 */
const TEACHERS_PUPIL = '(?: (?:pets?|favou?rites?|faves?|students?|pupils?|girls?|boys?|kids?|crush))';
const SCHOOL_STAFF = `(?:(?:teacher|coach)\\b(?!${TEACHERS_PUPIL}\\b)|(?:teachers|coaches)\\b(?! [a-z0-9@$])|(?:teaching|coaching)\\b)`;
export const SCREENING_RULES: readonly string[] = [
  // spelled out, read like the digits: "sixteen", "seventeen 36-24-36"; not "fifteen minutes",
  // "eighteen or older", "twelve hour"
  `(?:twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)(?! ${notAnAgeWords(true)})`,
  // not a minor fee, detail, change or issue, or a minor travel fee, nor a college minor ("a minor in
  // Spanish"; not "minor in town", "minor in Spanish Harlem", "minor in art class")
  'minor(?! (?:(?:travel|booking|parking|service|schedule|scheduling|outcall|incall|extra) )?(?:fees?|details?|changes?|charges?|issues?|costs?|surcharges?|adjustments?|extras?|repairs?|problems?|delays?|inconvenience)\\b)' +
    `(?! in (?:${COLLEGE_SUBJECTS})\\b(?! (?:${MINOR_IN_A_PLACE})\\b))`,
  // not a teacher's or coach's career, the subject between ("high school English teacher", "middle
  // school teacher", "junior high math teacher"); still "high school student teaching you" and a
  // pupil ("high school teacher's pet", TEACHERS_PUPIL)
  `(?:high|middle) ?school(?! (?:(?!${SCHOOL_PUPIL}\\b)[a-z]+ ){0,2}${SCHOOL_STAFF})`,
  `junior ?high(?! (?:(?!${SCHOOL_PUPIL}\\b)[a-z]+ ){0,2}${SCHOOL_STAFF})`,
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
  '(?:no one|noone|nobody|no|not|never|nor|dont|wont|ni|nem|sin|sem|nao|zero|prohibid[oa]s?|proibid[oa]s?|' +
  // not a refusal denied ("I never refuse to see teens", "I won't refuse to see minors")
  '(?<!\\b(?:never|not|no|dont|doesnt|didnt|wont|wouldnt|cant|cannot|shouldnt) )(?:refuses? to|declines? to))' +
  '(?: (?:se )?(?:atiend[eo]n?|atendo|atendem?|atendemos|acept[oa]n?|aceptamos|aceit[oa]m?|aceitamos|recib[eo]n?|recebo|recebem|permit[eo]n?|permitimos|' +
  'see|serve|accept|allow|meet|entertain))?' +
  '(?: (?:for|to|para|a))?';
/** A pimp the poster does not have: "I don't have a pimp", "never had a pimp", "without a pimp"; only a pimp ("never had a teen" is an offer). */
const NO_PIMP =
  '(?:no one|nobody|no|not|never|dont|doesnt|didnt|without)(?: (?:have|had|need|use|work with|worked with|work for|worked for))? (?:a |an |any )?' +
  '(?:pimps?|proxenetas?|cafetao|cafetoes)';
const NEGATED_AFTER =
  '(?:are |is )?(?:strictly |absolutely |totally )?(?:not (?:allowed|welcome|accepted|permitted)|prohibited|forbidden|no (?:permitidos|aceptados)|nao (?:permitidos|aceitos)|prohibidos|proibidos' +
  '|will be (?:reported|turned away|refused|turned down|rejected|blocked|banned|prosecuted))';
/** "not into teens", not asked ("Who's not into teens?", "Not into teens? Then you're missing out"). */
const NOT_INTO = '(?<!\\b(?:whos|who is|who s) )(?:not|never|no one|noone|nobody|arent|isnt) into';
/**
 * The end of a disclaimer: punctuation, an emoji or the end of the text. "if you are a minor, leave"
 * and "Underage? Don't even try" end there; "leave your number", "don't bother lying" go on to invite.
 */
const ENDS = '(?= *(?:[^a-z0-9@$ ]|$))';
/** After "if you are a minor,": what a disclaimer tells them to do ("leave this page now", "don't contact me"). */
const IF_MINOR_THEN =
  '(?:please )?(?:leave|go|go away|go back|exit|close|turn back|(?:dont|do not) (?:contact|call|text|message|email|book|see|visit|reply|respond|bother)(?: me| us)?)' +
  '(?: (?:this (?:page|site|website|ad)|now|immediately|right (?:now|away)|please)){0,3}';
/** "if you are a minor", as a disclaimer words it: after "do not contact me", or before "leave". */
const IF_YOU_ARE = '(?:you are|youre|ur|u r|u are|you r) (?:a |an )?';
const NEGATABLE =
  '(?:minors?|underage|teens?|teenagers?|adolescentes?|kids?|child(?:ren)?|pimps?|menor(?:es)?|criancas?|proxenetas?|cafetao|cafetoes|schoolgirls?)';
const NEGATABLES = `${NEGATABLE}(?: (?:or|nor|and|ni|nem|o|ou|y|e) ${NEGATABLE})*`;
const NEGATED = new RegExp(
  `(?<![a-z0-9@$])(?:${NEGATION}[ -]${NEGATABLES}|${NO_PIMP}|${NEGATABLES} ${NEGATED_AFTER}|${NEGATABLES}[ -]free` +
    `|${NEGATABLES} (?:outfits?|roleplay|role play|costumes?|uniforms?|fantasy|fantasies) (?:is |are )?not (?:available|offered|provided)` +
    `|${NOT_INTO} ${NEGATABLES}(?![ a-z]*\\?)` +
    `|${NEGATABLES}[?!.]* (?:dont|do not) (?:even )?(?:try|bother)${ENDS}` +
    `|(?:dont|do not|never) (?:call|text|contact|message|email|book|see|visit)(?: me)? if ${IF_YOU_ARE}${NEGATABLES}` +
    `|if ${IF_YOU_ARE}${NEGATABLES},? ${IF_MINOR_THEN}${ENDS})(?![a-z0-9@$])`,
  'g',
);
const NEGATABLE_RE = new RegExp(`(?<=^|[ -])${NEGATABLE}(?=[- ?!.,]|$)`, 'g');

/** The text with the mentions a disclaimer refuses blanked out (see NEGATED), each letter by a space, so that it stays as long as the text. */
export const unNegated = (folded: string) => folded.replace(NEGATED, (said) => said.replace(NEGATABLE_RE, (word) => ' '.repeat(word.length)));
/**
 * The text as unNegated left it, with an l wherever asL (the same text folded with capital I as l)
 * has one: the disclaimers stay those of the text as written ("NO ATIENDO MENORES DE EDAD" does not
 * become "atlendo", "Underage Is Not Allowed" does not become "ls"); then it is unNegated again,
 * so that "no chiIdren" passes as "no children" does.
 */
export const capitalIAsL = (said: string, asL: string) => unNegated(said.replace(/i/g, (i, at: number) => (asL.charAt(at) === 'l' ? 'l' : i)));
