import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { checkAdFields } from '../../../server/modules/ads/ads.rules.ts';
import { MAX_UPLOAD_BYTES } from '../../../server/modules/ads/ads.upload.ts';
import { EMPTY_AD_FORM, adFieldsOf, rateRowProblem, validateAdForm, type AdFormValues } from './adForm';

// The form's rules before submit are the server's: what the form lets through, the server takes.

const photo = (name: string, mb: number): File => {
  const f = new File([new Uint8Array(8)], name, { type: 'image/jpeg' });
  Object.defineProperty(f, 'size', { get: () => mb * 1024 * 1024 });
  return f;
};
const good: AdFormValues = {
  ...EMPTY_AD_FORM,
  listingType: 'female_esc',
  title: 'Warm and friendly company',
  description: 'Relaxed evenings, good conversation and a warm welcome every single time.',
  age: '30',
  stateId: 'ny',
  cityId: 'nyc',
  phone: '(212) 555-0123',
  photos: [photo('one.jpg', 1)],
};
/** What the server says of the same text fields: null when it takes them, else the field it refuses. */
function serverSays(v: AdFormValues): string | null {
  try {
    checkAdFields({ listingType: v.listingType, title: v.title, description: v.description, age: v.age, stateId: v.stateId, cityId: v.cityId, phone: v.phone });
    return null;
  } catch (e) {
    return (e as { params: { field: string } }).params.field;
  }
}

describe('the post-ad form’s rules', () => {
  it('count a title and a description as the server stores them: runs of spaces as one, control characters out', () => {
    const cases: [string, Partial<AdFormValues>][] = [
      ['spaces make a short title look long', { title: 'Hi    there' }],
      ['a zero-width character pads it', { title: 'Hi there\u200b\u200b\u200b' }],
      ['a title exactly long enough', { title: 'Hi  there!' }],
      ['blank lines pad a description', { description: `Short text.${'\n'.repeat(40)}Still short.` }],
      ['trailing spaces before line breaks', { description: `${'Relaxed evenings.      \n'.repeat(3)}` }],
    ];
    for (const [name, over] of cases) {
      const v = { ...good, ...over };
      const form = Object.keys(validateAdForm(v)).filter((k) => k === 'title' || k === 'description');
      const server = serverSays(v);
      expect(form, name).toEqual(server ? [server] : []);
    }
  });

  it('refuse new photos larger together than the server takes in one upload', () => {
    const many = Array.from({ length: 7 }, (_, i) => photo(`p${i}.jpg`, 9));
    expect(many.reduce((n, f) => n + f.size, 0)).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(validateAdForm({ ...good, photos: many }).photos).toEqual({ key: 'rules.photosTotal', values: { mb: 60 } });
    expect(validateAdForm({ ...good, photos: many.slice(0, 6) }).photos).toBeUndefined(); // 54 MB
  });
});

describe('the post-ad form’s lengths', () => {
  // PRODUCT §10 counts characters: an emoji (two UTF-16 units) is one, as the server counts it.
  it('count an emoji as one character of the title and the description, as the server does', () => {
    const cases: [string, Partial<AdFormValues>, string[]][] = [
      ['a 61-character title with 40 emoji', { title: `Hot new girl in town ${'💋'.repeat(40)}` }, []],
      ['a title of 100 emoji', { title: '🔥'.repeat(100) }, []],
      ['a title of 101 emoji', { title: '🔥'.repeat(101) }, ['title']],
      ['a title of 5 emoji (10 UTF-16 units)', { title: '🔥'.repeat(5) }, ['title']],
      ['a description of 25 emoji (50 UTF-16 units)', { description: '💋'.repeat(25) }, ['description']],
      ['a description of 5,000 characters, most of them emoji', { description: `Relaxed evenings ${'💋'.repeat(4983)}` }, []],
      ['a description of 5,001 characters', { description: `Relaxed evenings ${'💋'.repeat(4984)}` }, ['description']],
    ];
    for (const [name, over, refused] of cases) {
      const v = { ...good, ...over };
      const form = Object.keys(validateAdForm(v)).filter((k) => k === 'title' || k === 'description');
      expect(form, name).toEqual(refused);
      const server = serverSays(v);
      expect(server ? [server] : [], name).toEqual(refused);
    }
  });
});

describe('the post-ad form’s rates', () => {
  // A Spanish or Portuguese provider writes "150,00" for a hundred and fifty dollars, as the
  // wallet's top-up field takes it; the server gets cents as from "150.00".
  it('read a price typed with a decimal comma, and refuse one grouped the Spanish and Portuguese way', () => {
    const withRate = (price: string): AdFormValues => ({ ...good, rates: [{ minutes: '60', price }] });
    const sentRates = (price: string): unknown => JSON.parse(adFieldsOf(withRate(price)).rates ?? 'null');
    for (const price of ['150,00', '150,0', '150.00', '$150']) {
      expect(validateAdForm(withRate(price)).rates, price).toBeUndefined();
      expect(sentRates(price), price).toEqual([{ minutes: 60, priceCents: 15000 }]);
    }
    expect(sentRates('99,5')).toEqual([{ minutes: 60, priceCents: 9950 }]);
    for (const price of ['1.000,00', '1.500', '0,50', '10000,01']) expect(validateAdForm(withRate(price)).rates?.key, price).toBe('rules.ratePrice');
  });

  // The limits are worded when the message is, in its language: "1,00 US$" to a Spanish reader, not "$1.00".
  it('word the price limits as each language writes dollars', () => {
    const problem = rateRowProblem([{ minutes: '60', price: '0' }], 0)!;
    const say = (lng: string) => i18n.getFixedT(lng, 'market')(problem.key, problem.values);
    const usd = (lng: string, n: number) => new Intl.NumberFormat(lng, { style: 'currency', currency: 'USD' }).format(n);
    expect(say('en')).toBe('Each rate needs a duration and a price from $1.00 to $10,000.00.');
    expect(say('es')).toBe(`Cada tarifa necesita una duración y un precio de ${usd('es', 1)} a ${usd('es', 10000)}.`);
    expect(say('es')).toContain('10.000,00');
    expect(say('pt')).toBe(`Cada valor precisa de uma duração e de um preço de ${usd('pt', 1)} a ${usd('pt', 10000)}.`);
    expect(say('pt')).not.toContain('$1');
  });
});
