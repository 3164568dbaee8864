import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dateLabel } from './labels';

// The public pages' UTC dates are written without ICU (labels.ts): they must read exactly as ICU's
// medium date does in each of our languages, which is the model every case is checked against.
const icu = (lng: string, d: Date) => new Intl.DateTimeFormat(lng, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);

describe('dateLabel in UTC', () => {
  it('reads as ICU writes it, in English, Spanish and Portuguese, for any instant from year 1 to 9999', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('en', 'es', 'pt'),
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        (lng, d) => {
          expect(dateLabel(d.toISOString(), lng, true)).toBe(icu(lng, d));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('every month of a year, and the instants either side of a UTC midnight', () => {
    for (const lng of ['en', 'es', 'pt']) {
      for (let m = 0; m < 12; m++) {
        const d = new Date(Date.UTC(2026, m, 28, 12));
        expect(dateLabel(d.toISOString(), lng, true), `${lng} ${m}`).toBe(icu(lng, d));
      }
      for (const iso of ['2026-11-26T23:59:59.999Z', '2026-11-27T00:00:00.000Z', '2026-12-31T23:59:59Z', '2027-01-01T00:00:00Z', '2028-02-29T10:00:00Z']) {
        expect(dateLabel(iso, lng, true), iso).toBe(icu(lng, new Date(iso)));
      }
    }
    expect(dateLabel('2026-11-26T23:30:00Z', 'en', true)).toBe('Nov 26, 2026');
    expect(dateLabel('2026-09-03T00:00:00Z', 'es', true)).toBe('3 sept 2026');
    expect(dateLabel('2026-05-01T00:00:00Z', 'pt', true)).toBe('1 de mai. de 2026');
  });

  it('is empty for no date or a date that is not one; other languages and local dates still go through ICU', () => {
    expect(dateLabel(null, 'en', true)).toBe('');
    expect(dateLabel(undefined, 'es', true)).toBe('');
    expect(dateLabel('not a date', 'pt', true)).toBe('');
    const d = new Date('2026-11-26T12:00:00Z');
    expect(dateLabel(d.toISOString(), 'fr', true)).toBe(icu('fr', d));
    expect(dateLabel(d.toISOString(), 'en')).toBe(new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric' }).format(d));
  });
});
