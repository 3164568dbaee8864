import { describe, expect, it } from 'vitest';
import { findScreenedTerm } from './ads.screening.ts';

// Screening is matched on a normalized copy of the text (the ad itself is never rewritten). These
// are the disguises a poster can use to show a screened word to readers while hiding it from a
// naive matcher, and ordinary wording that must still pass.

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
    ]) {
      expect(findScreenedTerm(ok), ok).toBeNull();
    }
  });
});
