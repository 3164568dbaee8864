import { describe, expect, it } from 'vitest';
import { localeBase, splitLocale, switchLocalePath } from './locale';

describe('locale helpers', () => {
  it('splits the locale prefix from the path', () => {
    expect(splitLocale('/')).toEqual({ locale: 'en', rest: '/' });
    expect(splitLocale('/faq')).toEqual({ locale: 'en', rest: '/faq' });
    expect(splitLocale('/es')).toEqual({ locale: 'es', rest: '/' });
    expect(splitLocale('/es/')).toEqual({ locale: 'es', rest: '/' });
    expect(splitLocale('/pt/listings/us/texas')).toEqual({ locale: 'pt', rest: '/listings/us/texas' });
    // Only a whole first segment is a locale.
    expect(splitLocale('/espresso')).toEqual({ locale: 'en', rest: '/espresso' });
    expect(splitLocale('/fr/faq')).toEqual({ locale: 'en', rest: '/fr/faq' });
  });

  it('gives each locale its base', () => {
    expect(localeBase('en')).toBe('');
    expect(localeBase('es')).toBe('/es');
    expect(localeBase('pt')).toBe('/pt');
  });

  it('switches language keeping the rest of the path, query and hash', () => {
    expect(switchLocalePath('/listings/us/texas?page=2#top', 'es')).toBe('/es/listings/us/texas?page=2#top');
    expect(switchLocalePath('/es/listings/us/texas', 'pt')).toBe('/pt/listings/us/texas');
    expect(switchLocalePath('/pt/search?query=a%20b', 'en')).toBe('/search?query=a%20b');
    expect(switchLocalePath('/', 'pt')).toBe('/pt');
    expect(switchLocalePath('/es', 'en')).toBe('/');
  });
});
