import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findScreenedTerm } from './ads.screening.ts';
import { adForm, goodFields, jpegWithGps, liveAd, ownerAdminNy, postAdRaw, type Place } from './ads.testkit.ts';
import type { TestContext, TestUser } from '../../test/harness.ts';

// Screening is matched on a normalized copy of the text (the ad itself is never rewritten). These
// are the disguises a poster can use to show a screened word to readers while hiding it from a
// naive matcher, and ordinary wording that must still pass.

/** The texts the screening refuses, each with the term it reported. */
const refusedOf = (texts: string[]) =>
  texts.flatMap((text) => {
    const term = findScreenedTerm(text);
    return term === null ? [] : [`${text} => ${term}`];
  });
/** The texts the screening lets through. */
const passedOf = (texts: string[]) => texts.filter((text) => findScreenedTerm(text) === null);

describe('screening normalization', () => {
  it('sees through letters from other scripts that look Latin (Cyrillic, Greek)', () => {
    expect(findScreenedTerm('Sweet t\u0435\u0435n new in town')).toBe('teen'); // Cyrillic е
    expect(findScreenedTerm('Sweet \u03c4een new in town')).toBe('teen'); // Greek τ
    expect(findScreenedTerm('\u041a\u0406D friendly')).toBe('kid'); // Cyrillic К, І
    expect(findScreenedTerm('sch\u043e\u043elgirl outfit')).toBe('schoolgirl'); // Cyrillic о
  });

  it('sees through invisible characters inside a word', () => {
    expect(findScreenedTerm('Sweet te\u00aden new')).toBe('teen'); // soft hyphen
    expect(findScreenedTerm('Sweet te\u2060en new')).toBe('teen'); // word joiner
    expect(findScreenedTerm('Sweet te\ufeffen new')).toBe('teen'); // zero-width no-break space
    expect(findScreenedTerm('Sweet te\u180ben new')).toBe('teen'); // variation selector
    expect(findScreenedTerm('Sweet te\u200ben new')).toBe('teen'); // zero-width space
    // joiners, which an ad's stored text keeps between letters (non-joiner) or emoji (joiner)
    expect(findScreenedTerm('Sweet te\u200cen new')).toBe('teen'); // zero-width non-joiner
    expect(findScreenedTerm('Sweet te\u200den new')).toBe('teen'); // zero-width joiner
    expect(findScreenedTerm('Sweet 🏳️\u200d🌈 te\u200c\u200den new')).toBe('teen');
  });

  it('sees through punctuation inside a word', () => {
    expect(findScreenedTerm('Sweet te.en new')).toBe('teen');
    expect(findScreenedTerm('Sweet te_en new')).toBe('teen');
    expect(findScreenedTerm('Sweet un-der-age new')).toBe('underage');
    expect(findScreenedTerm('jail*bait')).toBe('jailbait');
  });

  it('reads 1 as l as well as i', () => {
    expect(findScreenedTerm('young gir1 next door')).toBe('young girl');
    expect(findScreenedTerm('bare1y 1egal')).toBe('barely legal');
    expect(findScreenedTerm('1o1ita')).toBe('lolita');
  });

  it('reads capitals, small capitals, stroked letters and Cherokee and Armenian look-alikes as Latin', () => {
    // Capitals are read before lower-casing: Greek Ν and Η are N and H, though their small forms read v and n.
    expect(findScreenedTerm('Sweet \u03a4\u0395\u0395\u039d new in town')).toBe('teen'); // Greek ΤΕΕΝ
    expect(findScreenedTerm('\u039c\u0399\u039d\u039fR here')).toBe('minor'); // Greek ΜΙΝΟ
    expect(findScreenedTerm('\u0397\u0399G\u0397 SCHOOL here')).toBe('high school'); // Greek Η, Ι
    expect(findScreenedTerm('sweet \u03bcnderage')).toBe('underage'); // Greek μ
    expect(findScreenedTerm('sweet \u1d1b\u1d07\u1d07\u0274 here')).toBe('teen'); // small capitals ᴛᴇᴇɴ
    expect(findScreenedTerm('sch\u00f8\u00f8lgirl outfit')).toBe('schoolgirl'); // ø
    expect(findScreenedTerm('\u0142o\u0142ita here')).toBe('lolita'); // ł
    expect(findScreenedTerm('\u00d8WNED BY him')).toBe('owned by'); // Ø
    expect(findScreenedTerm('\u13a2\u13ac\u13acN here')).toBe('teen'); // Cherokee ᎢᎬᎬ
    expect(findScreenedTerm('\uab72\uab7c\uab7cn here')).toBe('teen'); // Cherokee small letters
    expect(findScreenedTerm('sch\u0585\u0585lgirl outfit')).toBe('schoolgirl'); // Armenian օ
  });

  it('sees through digits glued to a word and symbols standing for letters', () => {
    expect(findScreenedTerm('Sweet teen18 here')).toBe('teen');
    expect(findScreenedTerm('new 18teen here')).toBe('teen');
    expect(findScreenedTerm('kid2 friendly')).toBe('kid');
    expect(findScreenedTerm('new t33n18 here')).toBe('teen');
    expect(findScreenedTerm('ch!ld here')).toBe('child');
    expect(findScreenedTerm('k|ds here')).toBe('kids');
    expect(findScreenedTerm('|o|ita here')).toBe('lolita');
    expect(findScreenedTerm('young 9irl here')).toBe('young girl');
    expect(findScreenedTerm('young 6irl here')).toBe('young girl');
  });

  it('reads ages under 21 however they are written, in English, Spanish and Portuguese', () => {
    for (const text of [
      'Age: 17, new in town',
      'aged 17 and new',
      'I am 17 and new',
      "I'm 19, sweet and new",
      'chica de 17 a\u00f1os',
      'menina de 17 anos',
      'tengo 17',
      'tenho 17',
      'Tengo 19, mi amor',
      'Edad: 18, nueva en la ciudad',
    ]) {
      expect(findScreenedTerm(text), text).not.toBeNull();
    }
  });

  it('knows the Spanish and Portuguese wording for minors and coercion', () => {
    expect(findScreenedTerm('Soy menor de edad')).toBe('menor de edad');
    expect(findScreenedTerm('Sou menor de idade')).toBe('menor de idade');
    expect(findScreenedTerm('Colegiala traviesa')).toBe('colegiala');
    expect(findScreenedTerm('Adolescente nueva')).toBe('adolescente');
    expect(findScreenedTerm('Novinha safada')).toBe('novinha');
    expect(findScreenedTerm('Ninfeta linda')).toBe('ninfeta');
    expect(findScreenedTerm('Uniforme colegial')).toBe('colegial');
    expect(findScreenedTerm('Soy una ni\u00f1a buena')).toBe('una nina');
    expect(findScreenedTerm('Chica traficada')).toBe('traficada');
    expect(findScreenedTerm('Estoy obligada a trabajar')).toBe('obligada');
    expect(findScreenedTerm('No tengo opci\u00f3n')).toBe('no tengo opcion');
    expect(findScreenedTerm('N\u00e3o tenho escolha')).toBe('nao tenho escolha');
    expect(findScreenedTerm('Tengo que pagar mi deuda')).toBe('pagar mi deuda');
  });

  it('still catches the plain forms, and lets ordinary wording through', () => {
    expect(findScreenedTerm('Sweet teen new in town')).toBe('teen');
    expect(findScreenedTerm('t e e n')).toBe('teen');
    expect(findScreenedTerm('17 yo')).toBe('17 yo');
    for (const ok of [
      'Elegant companion downtown, 27, discreet and punctual.',
      'Self-taught masseuse; e-mail or call. Hours: 10.00-22.00, $200/hr.',
      'Señorita elegante, atención exclusiva en el centro, cita previa.',
      'Acompanhante discreta, atendimento com hora marcada.',
      'Красивая девушка, звоните в любое время.',
      'A real lady, 35, mature and classy. In/out calls, 1 hour minimum.',
      // ages of 21 and over, and numbers that are not ages
      'Sweet and 21 years old. Age: 25. I am 30 and new in town.',
      "I am 15 minutes from the airport; I'm 2 blocks from the station; I'm 3 mi from the beach. I am 1 of a kind, a 10/10.",
      'Tengo 25 a\u00f1os. Solo mayores de 18 a\u00f1os, no atiendo menores de 18 a\u00f1os. M\u00e1s de 10 a\u00f1os de experiencia.',
      'Tenho 30 anos, atendo maiores de 18 anos, com 15 anos de experi\u00eancia.',
      // ordinary words holding a screened one, glued digits and symbols that are not letters
      'Just kidding! A childhood friend, now a mature lady. Skidding into your heart.',
      'Call me! Available 24hrs, 4K photos, mp3 of my voice. 100% real!!! Rates | Hours | Contact',
      // Spanish and Portuguese: a name, prices, "thank you", an outcall notice
      'Nina, elegante y discreta. Tarifas de menor precio entre semana, sin opci\u00f3n a regateo.',
      'Obrigada pela visita! Morena discreta, atendo com hora marcada, n\u00e3o posso sair hoje.',
      // Greek, Cherokee and Armenian text of their own
      '\u0395\u03bb\u03ad\u03bd\u03b7, \u03ba\u03bf\u03bc\u03c8\u03ae \u03ba\u03c5\u03c1\u03af\u03b1.',
      '\u13e3\u13b3\u13a9 \u13a6\u13ec\u13c2\u13af\u13cd\u13d7',
      '\u0532\u0561\u0580\u0587, \u0565\u057d \u0531\u0576\u0576\u0561\u0576 \u0565\u0574',
    ]) {
      expect(findScreenedTerm(ok), ok).toBeNull();
    }
  });
});

// Each false positive refuses an honest provider's ad; each false negative lets through an ad that
// suggests a minor. Both kinds were found by an audit; these keep them fixed.
describe('screening: honest wording that must pass', () => {
  const passes = (texts: string[]) => {
    for (const text of texts) expect(findScreenedTerm(text), text).toBeNull();
  };

  it('lets through disclaimers that refuse minors and pimps', () => {
    passes([
      '18+ only. No minors.',
      'No atiendo menores de edad.',
      'No se atienden menores de edad, solo caballeros.',
      'N\u00e3o atendo menores de idade.',
      'Proibido para menores de idade.',
      'Independent, no pimp, no agency, no drama.',
      'No kids, no drama, just fun.',
      'I have no children and no boyfriend, all my time is yours.',
    ]);
  });

  it('does not read years of experience as an age', () => {
    passes([
      'Professional LMT, 10 yrs experience, deep tissue and Swedish.',
      'Over 15 yrs in the business, I know how to treat a gentleman.',
      'Masajista profesional con experiencia de 5 a\u00f1os.',
      'Massagista com experi\u00eancia de 5 anos.',
      'Con 5 a\u00f1os trabajando en Miami, discreci\u00f3n total.',
    ]);
  });

  it("does not read the clients' minimum age as the poster's", () => {
    passes([
      'Age 18+ only please.',
      'Atiendo caballeros a partir de 18 a\u00f1os.',
      'Atendo homens a partir de 18 anos.',
      'Caballeros de 18 a\u00f1os o m\u00e1s.',
      'Com 18 anos ou mais, por favor.',
      'Solo +18 a\u00f1os, caballeros.',
    ]);
  });

  it('does not read Spanish "yo", "y/o" or "tengo/tenho N things" as an age', () => {
    passes([
      'Disponible desde las 10 yo te espero en mi depa.',
      'Somos 2, yo y mi amiga, para tr\u00edos.',
      'Citas de 1 y/o 2 horas, hotel y/o domicilio.',
      'Tengo 2 amigas disponibles para duo.',
      'Solo tengo 3 d\u00edas en Houston, ll\u00e1mame ya.',
      'Tenho 2 amigas para m\u00e9nage.',
      "I'm 4 real, no fake pics!",
    ]);
    for (const bad of ['tengo 17', "I'm 19, sweet", 'I am 17 and new']) expect(findScreenedTerm(bad), bad).not.toBeNull();
  });

  it('does not read a rank, "1 on 1" or a small count after "I\'m" or "girl" as an age', () => {
    passes([
      "I'm #1 in town, I'm 1 call away, I'm 1 on 1 only.",
      'Girl #1 in town, girl 1 on 1 time.',
      "I'm 3 exits from downtown and I'm 3 years into this business.",
      "I'm #1 on every list, ask for Girl #2.",
    ]);
    for (const bad of [
      "I'm 15",
      "I'm 16 yo",
      'girl 15',
      'I am 17 years old',
      'im 14 and new',
      "I'm 9 yo",
      'girl 9 years old',
      "I'm 17 #1 in town",
      '#17yo cutie',
    ])
      expect(findScreenedTerm(bad), bad).not.toBeNull();
  });

  it('lets through a Spanish or Portuguese disclaimer that the poster is not forced, and refuses the plight itself', () => {
    for (const ok of [
      'Independiente, nadie me obliga a nada.',
      'No estoy obligada a nada, trabajo por mi cuenta.',
      'Nunca me obligaron a nada.',
      'Não sou forçada, sou independente.',
      'Nunca fui forçada a nada.',
      'Parada obligada en tu visita a Miami.',
    ])
      expect(findScreenedTerm(ok), ok).toBeNull();
    for (const [bad, term] of [
      ['Estoy obligada a trabajar', 'obligada'],
      ['Me obligan a trabajar', 'me obligan'],
      ['Nadie sabe, me obligaron a venir', 'me obligaron'],
      ['Estou forçada a trabalhar', 'forcada'],
      ['Sou forçada', 'forcada'],
    ] as const)
      expect(findScreenedTerm(bad), bad).toBe(term);
  });

  it('lets through a disclaimer that the poster is not forced', () => {
    passes([
      '100% independent, nobody forced me into this.',
      'Independent and not forced to do anything.',
      "No one forced me, I wasn't forced to do anything, I have never been forced.",
      'Nobody has forced me into this, nor forced me to stay.',
    ]);
    for (const bad of ['I was forced to work', 'they forced me', 'nobody knows, I was forced to work', 'Not my choice: forced to work'])
      expect(findScreenedTerm(bad), bad).toBe('forced');
  });

  it('reads spelled-out numbers like digits, not as bare terms', () => {
    passes(['Only fifteen minutes from downtown.', 'You must be eighteen or older to book.', 'Twelve hour overnight special $2000.']);
  });

  it('lets through idioms that only look like coercion', () => {
    passes([
      'Pro Domme: forced orgasms, forced feminization, tease and denial.',
      'Kneel before me, slave. You must obey.',
      "Once you meet me you'll have no choice but to come back.",
      "You can't leave without a smile.",
      'Sensual spa, newly owned by a licensed therapist.',
      'Parada obligada en tu visita a Miami.',
      'Outcall for a minor travel fee.',
      'Former high school teacher, now a mature lady.',
    ]);
  });
});

describe('screening: wording that must be refused', () => {
  const refused = (texts: string[]) => {
    for (const text of texts) expect(findScreenedTerm(text), text).not.toBeNull();
  };

  it('reads Spanish and Portuguese ages under 21, in digits or words, with or without a preposition', () => {
    refused([
      'Latina, 17 a\u00f1os, nueva en la ciudad',
      'Morena, 17 anos, nova na cidade',
      'Hola, tengo 17a\u00f1os y soy nueva',
      'Mi amiga tiene 16 a\u00f1os',
      '17 a\u00f1os de edad, nueva',
      'Tengo diecisiete a\u00f1os, soy nueva',
      'Tenho dezessete anos e sou nova',
      'Tengo diecis\u00e9is a\u00f1os',
    ]);
  });

  it('reads "N years young", "just turned N", "barely N" and "sweet 16" under 21', () => {
    refused(['Sweet 19 years young, new in town', 'Just turned 19, first time here', 'Just turned 20 and ready', 'Barely 19 and ready', 'Sweet 16 and ready']);
    expect(findScreenedTerm('Classy and 21 years young, new in town')).toBeNull();
  });

  it('reads an age after "she\'s", "he is", "girl" and their Spanish and Portuguese words, and "tiene"/"tem"', () => {
    refused([
      "She's 17, sweet and new",
      'she is 16 and ready',
      "He's 19, twink",
      'Petite girl 17, new in town',
      'Chica 16, nueva',
      'Garota 17 safada',
      'Mi amiga tiene 17, es nueva',
      'Ela tem 17, novinha',
      'Sweet teenz here',
    ]);
    for (const ok of [
      'Girl 2 girl shows available.',
      'She is 5 minutes from the airport, he is 2 blocks away.',
      'Two girls 18+ only, call now.',
      "She's 25, he's 30: a couple for you.",
      'Tiene 2 amigas y tem 3 quartos, 1 hora minimo.',
    ]) {
      expect(findScreenedTerm(ok), ok).toBeNull();
    }
  });

  it('reads the digits of other scripts as digits', () => {
    refused(['Age: \u0661\u0667, new in town', 'I am \u0967\u096d', '\u06f1\u06f6 yo cutie']); // Arabic-Indic, Devanagari, Persian
    expect(findScreenedTerm('Age: \u0662\u0665, new in town')).toBeNull();
  });

  it('knows more slang for minors', () => {
    refused(['Gatinha de menor, discreta', '#barelylegal cutie', '#littlegirl new in town', 'Ninfetinha safada', 'Colegialinha safada', 'Teenie cutie']);
    expect(findScreenedTerm('Precios de menor a mayor, los de menor precio entre semana.')).toBeNull();
  });

  it('sees through more look-alike letters and symbols', () => {
    refused([
      '\u01adeen cutie', // ƭ
      '\u0199ids friendly', // ƙ
      'jailb\u0251it cutie', // ɑ
      '\u{1f183}\u{1f174}\u{1f174}\u{1f17d} cutie', // negative squared 🆃🅴🅴🅽
      '\u{1f163}\u{1f154}\u{1f154}\u{1f15d} cutie', // negative circled 🅣🅔🅔🅝
      '+33n cutie',
      'jail8ait cutie',
    ]);
  });

  it('still refuses minors and pimps named without a negation', () => {
    refused(['Minors welcome', 'Kids friendly', 'My pimp takes the money', 'Atiendo menores de edad', 'no drama, teen cutie']);
  });

  it('still refuses the narrowed words in their other wording', () => {
    refused([
      'Sweet seventeen 36-24-36',
      'Minor, no issues',
      'I am forced to work',
      'I have no choice but to do this',
      'The girls cannot leave',
      'Owned by my daddy',
      'Me obligan a trabajar',
      'Highschool cutie',
    ]);
  });
});

// Regressions of 8a88fca, found by a probe: its exceptions for the clients' minimum age, boasts
// and Spanish and Portuguese numbers spelled out reached too far, or not far enough.
describe('screening: the exceptions of 8a88fca, kept to their wording', () => {
  it("refuses the poster's own age after a greeting to gentlemen, men or clients, and keeps the clients' minimum age and range", () => {
    for (const bad of [
      "Hello gentlemen! I'm 17 and new in town. Discreet and friendly, call or text for an appointment.",
      'Hi gentlemen. I am 16, petite and sweet.',
      "Welcome men! I'm 17, discreet and friendly.",
      'Gentlemen aged 17, new in town',
      'Attention clients! I am 17',
      'Hey men. Age 17',
      "I'm 17. 5'2, petite", // the end of a sentence, not "17 5 2"
    ])
      expect(findScreenedTerm(bad), bad).not.toBeNull();
    for (const ok of [
      'Clients: minimum age 18, ID may be asked.',
      'Min. age 18, ID may be asked.',
      'I see gentlemen aged 18 to 80, all welcome.',
      'Gentlemen aged 18+ only. Men aged 18 and up welcome!',
      'Hours: 10.00-22.00. I am 25.',
    ])
      expect(findScreenedTerm(ok), ok).toBeNull();
  });

  it('reads sentence punctuation after a negation as a break: "No, me obligan" is the plight, not a disclaimer', () => {
    for (const [bad, term] of [
      ['No, me obligan a trabajar', 'me obligan'],
      ['Nunca. Me obligaron a venir', 'me obligaron'],
      ['No! Forced to work', 'forced'],
    ] as const)
      expect(findScreenedTerm(bad), bad).toBe(term);
    expect(findScreenedTerm('No estoy obligada, trabajo sola.')).toBeNull();
  });

  it('refuses an age followed by "out of <place>", and lets "10 out of 10" through', () => {
    for (const bad of [
      "Hi, I'm 16 out of Miami, visiting Dallas this week.",
      'Sweet girl 17 out of Queens, discreet and friendly.',
      'Age: 17 out of NYC. New in town.',
    ])
      expect(findScreenedTerm(bad), bad).not.toBeNull();
    for (const ok of ['I am 10 out of 10 in person.', "I'm 10 out of ten, ask my regulars."]) expect(findScreenedTerm(ok), ok).toBeNull();
  });

  it('lets Spanish and Portuguese dates, ranges and streets spelled out through, and still refuses an age', () => {
    for (const ok of [
      'De visita en Dallas del catorce al dieciocho de junio. Cita previa, discreción total.',
      'Disponible desde el quince de agosto en Houston.',
      'Estarei em Boston do dia quinze ao dia dezoito. Atendo com hora marcada.',
      'Citas de diez a quince, caballeros.',
      'Atendo na Av. Quinze de Novembro, centro.',
      'Llegué el trece de mayo, llámame.',
    ])
      expect(findScreenedTerm(ok), ok).toBeNull();
    for (const bad of ['Tengo quince años', 'Tenho dezessete anos', 'Chica de diecisiete, nueva', 'Diecisiete', 'Ana, diecisiete y una amiga'])
      expect(findScreenedTerm(bad), bad).not.toBeNull();
  });
});

// Regressions of 8c06df2, found by a probe: a sentence's end in the copy the age patterns read took
// an ellipsis for one ("I'm... 17" passed), and the clients' minimum age lost its "years and over" and
// "or more" wording ("Gentlemen aged 18 years and over" was refused).
describe("screening: an ellipsis and the clients' minimum age after 8c06df2", () => {
  it('refuses an under-21 age written after an ellipsis, in English, Spanish and Portuguese', () => {
    for (const bad of [
      "Hi! I'm... 17, new in town",
      'Age... 17.',
      'Edad... 17.',
      'I am \u2026 17', // the one-character ellipsis
      'I am\u202617',
      'Idade... 17',
      'tengo... 17',
      'Age: . . . 17',
      'Chica de 17... a\u00f1os', // between the number and its years
      "I'm 17... 5'2, petite", // after a number, before another: still the end of a sentence
      "I'm 17 \u2026 5'2, petite",
    ])
      expect(findScreenedTerm(bad), bad).not.toBeNull();
    for (const ok of ['Somos 2... yo y mi amiga, llámanos.', 'Min... age 18, ID may be asked.', 'I am... 10 minutes from the airport.'])
      expect(findScreenedTerm(ok), ok).toBeNull();
  });

  it('reads an ellipsis after a negation as a break: "No... me obligan" is the plight, "No me obligan... trabajo sola" a disclaimer', () => {
    for (const [bad, term] of [
      ['No... me obligan a trabajar', 'me obligan'],
      ['Nunca\u2026 me obligaron a venir', 'me obligaron'],
      ['No... forced to work', 'forced'],
    ] as const)
      expect(findScreenedTerm(bad), bad).toBe(term);
    for (const ok of ['Nadie me obliga... trabajo sola.', 'No estoy obligada... trabajo porque quiero.', 'Not forced... independent and happy.'])
      expect(findScreenedTerm(ok), ok).toBeNull();
  });

  it('lets the clients\' minimum age through with years, "or more" or "&", and keeps the poster\'s own age refused', () => {
    for (const ok of [
      'Gentlemen aged 18 years and over welcome',
      'Clients aged 18 or more welcome',
      'Gentlemen aged 18 years or older',
      'Gentlemen aged 18 yrs and over, by appointment.',
      'Men aged 18 & over only.',
      'Edad: 18 a\u00f1os o m\u00e1s.',
      'Idade: 18 anos ou mais.',
      'Edad m\u00ednima: 18 a\u00f1os.',
      'Idade m\u00ednima 18 anos.',
      'Homens de 18 anos para cima.',
    ])
      expect(findScreenedTerm(ok), ok).toBeNull();
    for (const bad of ["I'm 17 or more", "I'm 17 years and over", 'Tengo 17 a\u00f1os o m\u00e1s', "I'm 17 & new", 'Gentlemen aged 17 years, new in town'])
      expect(findScreenedTerm(bad), bad).not.toBeNull();
  });
});

describe("screening: 'and up' after the poster's own age", () => {
  // "and up" after "I'm 17" is what she is up for, not a minimum: refused; "18+" and an age of 21 or
  // more with "and up" pass as before, and the clients' "ages 18 and up" is a minimum still.
  it("refuses 'I'm 17 and up for anything', and takes 'I'm 18+ and discreet' and 'Clients aged 18 and up'", () => {
    expect(findScreenedTerm("Hey! I'm 17 and up for anything tonight")).not.toBeNull();
    expect(findScreenedTerm('I am 19 and up for fun, call me')).not.toBeNull();
    expect(findScreenedTerm("Hi, I'm 25 and up for anything, call me")).toBeNull();
    expect(findScreenedTerm("I'm 18+ and discreet, call me")).toBeNull();
    expect(findScreenedTerm('Clients aged 18 and up welcome, call me')).toBeNull();
  });

  it("refuses it after the other words of the poster's own age too: she's, girl, just turned", () => {
    expect(findScreenedTerm("She's 17 and up for anything")).not.toBeNull();
    expect(findScreenedTerm('Latina girl 17 and up for fun')).not.toBeNull();
    expect(findScreenedTerm('Just turned 19 and up for anything')).not.toBeNull();
    expect(findScreenedTerm('Latina girl 24 and up for fun, call me')).toBeNull();
    expect(findScreenedTerm('Sweet girl 18+ only adults, call me')).toBeNull();
  });
});

describe('screening: the post-ad form after 8c06df2', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let ny: Place;
  beforeEach(async () => {
    ({ ctx, owner, ny } = await ownerAdminNy());
  });
  afterEach(async () => ctx.close());

  /** What the post-ad form answers for this description: the status and the refusal's code, if any. */
  async function postWith(description: string) {
    const res = await postAdRaw(ctx, owner, goodFields(ny, { description }), [await jpegWithGps()]);
    return { status: res.statusCode, code: res.statusCode === 201 ? null : (res.json().code as string) };
  }

  it('refuses an under-21 age written after an ellipsis ("I\'m... 17"), as "I\'m 17" is', async () => {
    const texts = [
      "Hi! I'm... 17, new in town. Discreet and friendly, call or text.",
      'Sweet and petite. Age... 17. Call or text for an appointment.',
      'Hola, soy nueva. Edad... 17. Discreta y cariñosa, llámame.',
    ];
    const answers = [];
    for (const text of texts) answers.push({ text, ...(await postWith(text)) });
    expect(answers).toEqual(texts.map((text) => ({ text, status: 400, code: 'ad.screened_wording' })));
  });

  it('posts the clients\' minimum age written "aged 18 years and over" or "aged 18 or more"', async () => {
    const texts = [
      'Discreet and friendly. Gentlemen aged 18 years and over welcome, by appointment only.',
      'Discreet and friendly. Clients aged 18 or more welcome, by appointment only.',
    ];
    const answers = [];
    for (const text of texts) answers.push({ text, ...(await postWith(text)) });
    expect(answers).toEqual(texts.map((text) => ({ text, status: 201, code: null })));
  });
});

// Gaps found by a probe in the Spanish and Portuguese US providers write: ages stated in wording
// the patterns did not know, words for a minor or for high school, and honest heights and boasts
// read as an age.
describe('screening: Spanish and Portuguese wording (edd9ebf)', () => {
  const refused = (texts: string[]) => {
    for (const text of texts) expect(findScreenedTerm(text), text).not.toBeNull();
  };
  const passes = (texts: string[]) => {
    for (const text of texts) expect(findScreenedTerm(text), text).toBeNull();
  };

  it('refuses "<descriptor> de N" under 21, and lets hours, dates and "una chica de 10" through', () => {
    refused([
      'Morena de 17, recien llegada',
      'Chica de 16, nueva en NY',
      'Garota de 16 carinhosa',
      'Menina de 17 na cidade',
      'Latina de 19',
      'Rubia de veinte',
    ]);
    passes([
      'Chica de 10 a 12 disponible, tengo 25.',
      'Morena de 15 de mayo en adelante en Houston, 30 años.',
      'Una chica de 10, te encantará.',
      'Garota de 15 minutos do centro, 28 anos.',
      'Solo mayores de 18, caballeros.',
    ]);
  });

  it('refuses Spanish and Portuguese "just turned N", and lets an age of 21 or more and counts through', () => {
    refused([
      'Acabo de cumplir 17, latina',
      'Recién cumplidos los 17',
      'Acabei de fazer 17, morena',
      'Cumplí 16 ayer, ven a verme',
      '17 recién cumplidos, nueva',
    ]);
    passes(['Acabo de cumplir 25, latina', 'Cumplí 21 ayer, ven a verme', 'Cumplo 2 fantasías por cita.', 'Fiz 3 tatuagens novas.', 'Cumplo tus fantasías.']);
  });

  it('reads Spanish and Portuguese ages in words with digits for letters or spaced out, as "s3v3nt33n" is', () => {
    refused(['Soy Ana, d1ec1s1ete, latina', 'Sou a Bia, d3z3ss3t3, morena', 'Soy Ana, dieci siete, nueva', 'Soy Ana, d i e c i s i e t e, nueva']);
    passes(['Solo mayores de d1ec1ocho, caballeros.', 'No atiendo menores de dieci ocho.', 'Cita a las d1ec1s1ete en el hotel.']);
  });

  it('refuses "tengo N" followed by an adverb or a conjunction ending in "s", and lets counts through', () => {
    refused(['Tengo 17 nomás, ven', 'Tenho 17 apenas, carinhosa', 'Tenho 16 mas sou safada', 'Tengo 17 pues, nueva']);
    passes(['Tengo 2 amigas disponibles.', 'Tengo 2 más amigas para trío.', 'Tenho 3 quartos e 2 amigas.']);
  });

  it('refuses the everyday misspellings "dezesete", "dezeseis" and "diesisiete"', () => {
    refused(['Sou a Bia, dezesete, morena', 'Tenho dezesete anos', 'Dezeseis, nova', 'Diesisiete añitos, latina']);
  });

  it('refuses "N primaveras" as "N años", and not as the clients\' age', () => {
    refused(['Latina, tengo 16 primaveras', 'Morena, tenho 17 primaveras', '16 primaveras, latina']);
    passes(['Tengo 30 primaveras.', 'Solo mayores de 18 primaveras.']);
  });

  it('refuses "menorcita" and Spanish for high school, and lets a "salida secundaria" and a "massagem preparatória" through', () => {
    expect(findScreenedTerm('Menorcita rica, nueva')).toBe('menorcita');
    expect(findScreenedTerm('Soy menorcita y discreta')).toBe('menorcita');
    expect(findScreenedTerm('Latina estudiante de secundaria')).toBe('de secundaria');
    expect(findScreenedTerm('Voy a la secundaria, soy nueva')).toBe('la secundaria');
    expect(findScreenedTerm('Estudiante de prepa, discreta')).toBe('de prepa');
    expect(findScreenedTerm('Uniforme de preparatoria')).toBe('de preparatoria');
    expect(findScreenedTerm('Todavía voy a la preparatoria')).toBe('la preparatoria');
    passes(['Salida secundaria por el estacionamiento, discreción total.', 'Massagem preparatória relaxante antes do encontro.']);
  });

  it('takes heights and sizes with a decimal comma, and keeps "17,5\'2" an age', () => {
    passes(['Latina, tengo 1,60 de estatura', 'Morena, tenho 1,55 m e 58 kg', 'Sou a Bia, tem 1,68 de altura', 'Tengo 20,5 cm para ti.']);
    refused(["I'm 17,5'2 petite", 'Tengo 17, mido 1,60.']);
  });

  it('takes the boasts "Chica 10 de 10" and "Garota 10 em tudo", and still refuses "Chica 16 de Miami"', () => {
    passes(['Chica 10 de 10, latina', 'Garota 10 em tudo', 'Chica 10 en todo, latina', 'Chica 10 de diez.']);
    refused(['Chica 16 de Miami, nueva']);
  });
});

describe('screening: the post-ad and edit forms, in Spanish and Portuguese (edd9ebf)', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let admin: TestUser;
  let ny: Place;
  let photo: Buffer;
  beforeEach(async () => {
    ({ ctx, owner, admin, ny } = await ownerAdminNy());
    photo = await jpegWithGps();
  });
  afterEach(async () => ctx.close());

  it('refuses "Morena de 17" and "Tengo 17 nomás" at post, and posts a height with a decimal comma', async () => {
    const answers = [];
    for (const title of ['Morena de 17, recien llegada', 'Tengo 17 nomás, ven', 'Latina, tengo 1,60 de estatura']) {
      const res = await postAdRaw(ctx, owner, goodFields(ny, { title }), [photo]);
      answers.push(`${title}: ${res.statusCode} ${res.statusCode === 201 ? '' : res.json().code}`);
    }
    expect(answers).toEqual([
      'Morena de 17, recien llegada: 400 ad.screened_wording',
      'Tengo 17 nomás, ven: 400 ad.screened_wording',
      'Latina, tengo 1,60 de estatura: 201 ',
    ]);
  });

  it('refuses "acabo de cumplir 17" and "d1ec1s1ete" in an edit of a live ad', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const keepPhotos = JSON.stringify((ad.photos as { url: string }[]).map((p) => p.url));
    const answers = [];
    for (const title of ['Acabo de cumplir 17, latina', 'Soy Ana, d1ec1s1ete, latina']) {
      const res = await ctx.app.inject({
        method: 'PUT',
        url: `/api/ads/${ad.id}`,
        headers: { cookie: owner.cookie },
        payload: adForm({ ...goodFields(ny, { title }), keepPhotos }, []),
      });
      answers.push(`${title}: ${res.statusCode} ${res.json().code}`);
    }
    expect(answers).toEqual(['Acabo de cumplir 17, latina: 400 ad.screened_wording', 'Soy Ana, d1ec1s1ete, latina: 400 ad.screened_wording']);
  });
});

describe("screening: honest adverts, and the minors' wordings beside them (e64853f)", () => {
  // Honest providers wrongly refused lose the ad and are logged to staff as suspects: each of these
  // was refused. Next to each, the wording it must not open (still refused).

  it('does not read years in the trade written "N yrs" as an age, and still refuses "Brenda, 19 yrs"', () => {
    expect(
      refusedOf([
        'Experience: 10 yrs. Licensed LMT, deep tissue and Swedish.',
        'Licensed massage therapist - 8 yrs.',
        'Been in the business 8 yrs, I know how to treat a gentleman.',
        'Serving Houston 10 yrs, discreet and reliable.',
        'Licensed LMT 12 yrs, deep tissue.',
      ]),
    ).toEqual([]);
    expect(passedOf(['Brenda, 19 yrs, new in town', 'Petite latina 17 yrs', 'Serving you, 17 yrs'])).toEqual([]);
  });

  it('lets through disclaimers that turn minors away in everyday wording, and still refuses an offer', () => {
    expect(
      refusedOf([
        'Do not contact me if you are a minor.',
        'If you are a minor leave this page now.',
        'Minors are strictly prohibited.',
        'Minors will be reported to police.',
        'I refuse to see minors.',
        'I ID everyone, minors will be turned away.',
        "Underage? Don't even try.",
        'Not into teens, just mature gents.',
      ]),
    ).toEqual([]);
    expect(
      passedOf(['If you are a teen call me', "Underage? Don't be shy", "Teen? Don't even try to resist", 'Minors will be spoiled', 'Teens welcome']),
    ).toEqual([]);
  });

  it('lets through statements that the poster has no pimp, and still refuses a teen offered that way', () => {
    expect(
      refusedOf(["Independent, I don't have a pimp.", 'I do not work with a pimp or agency.', 'Never had a pimp, never will.', 'Pimp-free, 100% independent.']),
    ).toEqual([]);
    expect(passedOf(['Never had a teen? Call me', 'I have a pimp', 'Working for my pimp'])).toEqual([]);
  });

  it("lets through a teacher's day job at a high school, middle school or junior high, and still refuses a pupil", () => {
    expect(
      refusedOf(["I'm a high school English teacher by day.", 'Middle school teacher by day, naughty by night.', 'Junior high math teacher, 38, wild side.']),
    ).toEqual([]);
    expect(
      passedOf([
        'High school student teaching you tricks',
        'Middle school girl',
        'Junior high cutie',
        '#middleschool',
        '#juniorhigh',
        'high school senior coach',
      ]),
    ).toEqual([]);
  });

  it('lets through a college minor, and still refuses a minor in town', () => {
    expect(refusedOf(['College student majoring in nursing with a minor in Spanish.', 'Minor in psychology, major in fun.'])).toEqual([]);
    expect(passedOf(['Minor in town, call me', 'Sweet minor in your area'])).toEqual([]);
  });

  it('lets through an "old-school girl", "I kid you not" and a kid in a candy store, and still refuses a school girl and a kid', () => {
    expect(
      refusedOf([
        "I'm an old school girl, I like romance and manners.",
        'Old-school girl with class.',
        'I kid you not, best GFE in town.',
        "You'll feel like a kid in a candy store.",
      ]),
    ).toEqual([]);
    expect(passedOf(['Naughty school girl here', 'Cute kid next door', 'K1d friendly', 'Sweet schoolgirl'])).toEqual([]);
  });

  it('does not read text-speak after "sweet" or "fresh", or months, as an age, and still refuses "sweet 16" and "barely 17"', () => {
    expect(
      refusedOf([
        'Always fresh 4 you.',
        'Sweet 4 u, call me.',
        'Sweet 2 meet u, 25.',
        'Fresh 2 town, 24 yo.',
        'Barely 10 months in the States, 29.',
        "I'm 11 months sober and loving life, 34.",
        'Llevo 10 meses en Miami, 27 años.',
      ]),
    ).toEqual([]);
    expect(passedOf(['Sweet 16', 'Fresh 18 and new', 'Barely 17', "I'm 17 months? no, I'm 17", 'Sweet 9 yo'])).toEqual([]);
  });

  it('does not read Spanglish "yo" after a range of hours or "24/7" as years old, and still refuses "17 yo"', () => {
    expect(refusedOf(['Disponible 24/7 yo te espero papi.', 'Mañana de 10 a 12 yo estoy libre.', 'Dime a que hora, de 9 a 5 yo te atiendo.'])).toEqual([]);
    expect(passedOf(['Ana 17 yo te espero', 'Chica de 16 a 17yo', 'Disponible 24/7, 17 yo', 'de 10 a 12 yo, 19 yo'])).toEqual([]);
  });

  it('does not read "tengo 1 amiga" or Portuguese "garota doce" (a sweet girl) as an age, and refuses "tengo apenas 17"', () => {
    expect(refusedOf(['Tengo 1 amiga for duos.', 'Tengo 1 cuarto privado, incall.', 'Garota doce e carinhosa, 25.', 'Menina doce e safada, 30 anos.'])).toEqual(
      [],
    );
    expect(
      passedOf(['Tengo apenas 17, nueva', 'Tengo solo 17 y soy nueva', 'Tenho só 17, nova na cidade', 'Tengo ya 16', 'Tengo 9 añitos', 'Garota 17 e doce']),
    ).toEqual([]);
  });

  it('lets through "no hay pedo" and a refusal of schoolgirl roleplay, and still refuses "pedo" and schoolgirl roleplay', () => {
    expect(
      refusedOf([
        'No hay pedo, te atiendo rapido.',
        'Ni pedo, así es.',
        "Schoolgirl outfit NOT available, please don't ask.",
        'No schoolgirl roleplay, sorry.',
      ]),
    ).toEqual([]);
    expect(passedOf(['Pedo friendly', 'Soy pedo', 'Schoolgirl outfit available', 'Schoolgirl roleplay, ask me'])).toEqual([]);
  });

  it('lets through "Nina\'s", and still refuses "niñas" written with its tilde or beside Spanish words', () => {
    expect(refusedOf(["Book Nina's VIP package tonight.", 'Ninas place, incall'])).toEqual([]);
    expect(passedOf(['Sweet niñas here', 'Tenemos NIÑAS', 'Las ninas de Miami', 'unas ninas lindas'])).toEqual([]);
  });

  it('lets through Spanish and Portuguese "twenty-something" and a range of hours with its unit', () => {
    expect(
      refusedOf([
        'Mulher de 20 e poucos anos, carinhosa',
        'Morena de 20 e tantos anos',
        'Mujer de 20 y tantos años, cariñosa',
        'Latina de 12 a 8pm, llámame',
        'Chica de 19 a 23h, discreta',
        'Chica de 19 a 23 hs',
      ]),
    ).toEqual([]);
    expect(passedOf(['Mujer de 20, nueva', 'Chica de 19 y soy nueva', 'Latina de 17 a tu servicio'])).toEqual([]);
  });

  it('refuses "<descriptor> de N" with the common adjectives ("linda de 16", "bonita de 17", "hermosa de 17")', () => {
    expect(
      passedOf([
        'Linda de 16, nueva en la ciudad',
        'Bonita de 17, nueva',
        'Hermosa de 17 para ti',
        'Preciosa de 18',
        'Bella de 19',
        'Guapa de 16',
        'Jovencita de 17',
        'Sexy de 18',
      ]),
    ).toEqual([]);
    expect(refusedOf(['Linda de 10 a 12, llámame', 'Bonita de 25', 'Hermosa de 15 de mayo en adelante'])).toEqual([]);
  });
});

describe('screening: the post-ad form, honest adverts (e64853f)', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let ny: Place;
  beforeEach(async () => {
    ({ ctx, owner, ny } = await ownerAdminNy());
  });
  afterEach(async () => ctx.close());

  it('posts an ad by a provider called Nina ("Nina\'s VIP package"), and refuses "Linda de 16"', async () => {
    const photo = await jpegWithGps();
    const answers = [];
    for (const [title, description] of [
      ["Nina's VIP companionship", "Book Nina's VIP package tonight. Upscale, discreet, 29, real photos, incall in Midtown."],
      ['Linda de 16, nueva en la ciudad', 'Latina cariñosa, incall en Midtown, fotos reales, discreta.'],
    ] as const) {
      const res = await postAdRaw(ctx, owner, goodFields(ny, { title, description }), [photo]);
      answers.push(`${title}: ${res.statusCode} ${res.statusCode === 201 ? '' : res.json().code}`);
    }
    expect(answers).toEqual(["Nina's VIP companionship: 201 ", 'Linda de 16, nueva en la ciudad: 400 ad.screened_wording']);
  });
});

describe('screening: the exceptions of e64853f kept to honest adverts (2dd722b)', () => {
  // Adverts that used the exceptions of e64853f and edd9ebf to state a minor's age or wording; next
  // to each, the honest adverts those exceptions let through (still let through).

  it('refuses "niñas" disguised with a digit, a symbol, a look-alike letter or glued into a hashtag, and still lets "Nina\'s" through', () => {
    expect(
      passedOf([
        'Somos n1ñas lindas, nuevas en la ciudad',
        'Somos niñ@s lindas, nuevas en la ciudad',
        'Somos n\u0456ñas lindas, nuevas en la ciudad', // Cyrillic і
        'Somos niňas lindas, nuevas en la ciudad', // n with caron
        'Nuevas en la ciudad #NiñasLindas',
      ]),
    ).toEqual([]);
    expect(refusedOf(["Book Nina's VIP package tonight.", 'Ninas place, incall', 'Señorita Nina, 25 años, cariñosa'])).toEqual([]);
  });

  it('reads "y tantos", "e poucos" as in her twenties only after 20: "chica de 17 y pico" is refused', () => {
    expect(
      passedOf([
        'Chica de 17 y pico, nueva en la ciudad',
        'Morena de 16 y tantos, cariñosa',
        'Garota de 17 e poucos, carinhosa',
        'Latina de 19 y algo, discreta',
      ]),
    ).toEqual([]);
    expect(refusedOf(['Mujer de 20 y tantos años, cariñosa', 'Morena de veinte y pico', 'Mulher de vinte e poucos'])).toEqual([]);
  });

  it('refuses "de N" after a companion, a plural or an adjective: "tengo 1 amiga de 16", "dos chicas de 17", "garota doce de 16"', () => {
    expect(
      passedOf([
        'Tengo 1 amiga de 16 para ti',
        'Mi amiga de 16 también atiende',
        'Somos dos chicas de 17, nuevas',
        'Somos dos ninas de 16', // niñas typed without its tilde
        'Garota doce de 16, carinhosa',
      ]),
    ).toEqual([]);
    expect(
      refusedOf([
        'Tengo 1 amiga for duos.',
        'Tengo 2 amigas disponibles para duo.',
        'Chicas disponibles de 12 a 8pm',
        'Chica disponible de 12 en adelante, 25 años',
        'Morena disponible de 15 de mayo, 30 años',
        'Dos amigas de 20 y tantos, cariñosas',
      ]),
    ).toEqual([]);
  });

  it("refuses a high school, middle school or junior high teacher's pet, and still lets the teacher through", () => {
    expect(
      passedOf([
        "Naughty high school teacher's pet, call me",
        "Naughty middle school teacher's pet, call me",
        "Naughty junior high teacher's pet, call me",
        "High school teacher's favorite student",
        "Middle school teacher's little helper",
      ]),
    ).toEqual([]);
    expect(
      refusedOf(["I'm a high school English teacher by day.", 'Middle school teacher by day, naughty by night.', 'Retired junior high coach, 45.']),
    ).toEqual([]);
  });

  it('refuses a minor in a place or a class named after a subject, and still lets a college minor through', () => {
    expect(passedOf(['Little latina minor in Spanish Harlem, call me', 'Shy minor in art class, text me'])).toEqual([]);
    expect(refusedOf(['College student majoring in nursing with a minor in Spanish.', 'Minor in psychology, major in fun.'])).toEqual([]);
  });

  it('refuses "N yrs" after a career word when more follows ("New masseuse 19 yrs petite"), and lets a career through', () => {
    expect(passedOf(['New masseuse 19 yrs petite Asian, call now', 'Young LMT 18 yrs Asian, new in town', 'Now serving Miami 19 yrs petite latina'])).toEqual(
      [],
    );
    expect(
      refusedOf([
        'Experience: 10 yrs. Licensed LMT, deep tissue and Swedish.',
        'Licensed LMT 12 yrs, deep tissue.',
        'Serving Houston 10 yrs, discreet and reliable.',
        'Masseuse 15 yrs experience',
        'Licensed therapist 12 yrs',
      ]),
    ).toEqual([]);
  });

  it('blanks "if you are a minor, leave" only where the disclaimer ends there, or tells them not to contact', () => {
    expect(
      passedOf([
        "If you're a teen, don't be shy, call me",
        'If you are a minor, leave your number and I will call you back',
        'If u r a minor, dont tell anyone and come over',
      ]),
    ).toEqual([]);
    expect(
      refusedOf([
        'If you are a minor leave this page now.',
        'if you are a minor, leave this page now',
        "If you're a minor, don't contact me.",
        'If you are underage please leave 🚫',
      ]),
    ).toEqual([]);
  });

  it('refuses a refusal denied ("I never refuse to see teens"), a "not into teens" asked, and "Underage? Don\'t bother lying"', () => {
    expect(
      passedOf([
        'Open minded: I never refuse to see teens',
        "Open minded: I won't refuse to see minors",
        "Who's not into teens? 😉 Call me",
        "Not into teens? Then you're missing out",
        "Underage? Don't bother lying about it",
        "Teens? Don't even bother with condoms",
      ]),
    ).toEqual([]);
    expect(
      refusedOf([
        'I refuse to see minors.',
        'Not into teens, just mature gents',
        "Underage? Don't even try.",
        "Minors? Don't bother 🚫",
        'I decline to see minors',
      ]),
    ).toEqual([]);
  });

  it('reads a range of hours before Spanish "yo" only after "de"/"desde": "Open 24/7 a 17 yo latina" is refused', () => {
    expect(passedOf(['Open 24/7 a 17 yo latina waiting for you', 'Room 5 a 16 yo girl waiting'])).toEqual([]);
    expect(refusedOf(['Disponible 24/7 yo te espero papi.', 'Mañana de 10 a 12 yo estoy libre.', 'Desde 9 a 5 yo te atiendo.'])).toEqual([]);
  });
});

describe('screening: the post-ad form, the exceptions kept (2dd722b)', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let ny: Place;
  beforeEach(async () => {
    ({ ctx, owner, ny } = await ownerAdminNy());
  });
  afterEach(async () => ctx.close());

  it('refuses the ads "Chica de 17 y pico" and "Tengo 1 amiga de 16" (400 ad.screened_wording)', async () => {
    const photo = await jpegWithGps();
    const answers = [];
    for (const title of ['Chica de 17 y pico, nueva en la ciudad', 'Tengo 1 amiga de 16 para ti']) {
      const res = await postAdRaw(ctx, owner, goodFields(ny, { title }), [photo]);
      answers.push(`${title}: ${res.statusCode} ${res.statusCode === 201 ? '' : res.json().code}`);
    }
    expect(answers).toEqual(['Chica de 17 y pico, nueva en la ciudad: 400 ad.screened_wording', 'Tengo 1 amiga de 16 para ti: 400 ad.screened_wording']);
  });
});

describe('screening cost', () => {
  // A guard against a pattern that backtracks (seconds, growing with the text), not a benchmark: the
  // worst of these takes ~10–40 ms on a busy 2-core machine since the CamelCase, stretched-letter
  // and syllable readings (more copies of the text to match), so the bound leaves room for a loaded CI.
  it('screens a 5,000-character adversarial description in well under a second', () => {
    const adversarial = [
      '1'.repeat(5000),
      '!'.repeat(5000),
      '|'.repeat(5000),
      '!|'.repeat(2500),
      '1 '.repeat(2500),
      'a!'.repeat(2500),
      'no '.repeat(1666),
      'tengo '.repeat(833),
      'de 1'.repeat(1250),
      'te\u0435\u03c4\u13a2'.repeat(1000),
      'teen '.repeat(1000),
      'kiss '.repeat(1000),
      'no minors '.repeat(500),
      'just turned '.repeat(416),
      'a '.repeat(2500),
      '1a'.repeat(2500),
      '1+'.repeat(2500),
      '+a'.repeat(2500),
      '\u{1f183}\u{1f154}'.repeat(1250),
      'you will be '.repeat(416),
      'no' + ' '.repeat(4990) + 'kids',
      '\u2026'.repeat(5000),
      '1' + '. '.repeat(2499),
      'age& '.repeat(1000),
      'morena de '.repeat(500),
      'acabo de cumplir '.repeat(294),
      'd1'.repeat(2500),
      '1,'.repeat(2500),
      'tengo 17 mas '.repeat(384),
      'd i e c i '.repeat(500),
      'if you are a '.repeat(384),
      'minors '.repeat(714),
      'minors? '.repeat(625),
      'never had a '.repeat(416),
      '10 a '.repeat(1000),
      '24/7 yo '.repeat(625),
      'high school '.repeat(416),
      'serving houston '.repeat(312),
      'linda de '.repeat(555),
      'tengo apenas '.repeat(384),
      'amiga linda '.repeat(454),
      'chicas de '.repeat(500),
      'not into teens '.repeat(333),
      'if you are a minor leave '.repeat(200),
      'minors dont try '.repeat(312),
      'ni\u00f1@s '.repeat(833),
      'from 5 a '.repeat(555),
      'masseuse 19 yrs '.repeat(312),
    ];
    for (const text of adversarial) {
      findScreenedTerm(text); // warm up
      const start = performance.now();
      findScreenedTerm(text);
      expect(performance.now() - start, text.slice(0, 20)).toBeLessThan(250);
    }
  });
});
