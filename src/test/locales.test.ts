import { describe, expect, it } from 'vitest';
import { localeResources } from './i18n';

// Every namespace: every key must exist in every language, with the same {{placeholders}} and
// <tags>, or a user of one language sees a raw key or a broken sentence. (English carries `_many`
// plural keys it never uses, so that all three languages have exactly the same keys.)

function flatten(obj: unknown, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    if (v && typeof v === 'object') Object.assign(out, flatten(v, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = String(v);
  }
  return out;
}
// A placeholder with its format ({{count, number}}) is one token: the languages format alike.
const tokens = (s: string) => [...s.matchAll(/\{\{\s*\w+\s*(?:,\s*\w+\s*)?\}\}|<\/?(\w+)>/g)].map((m) => m[0].replace(/\s/g, '')).sort();

describe('translations', () => {
  const resources = localeResources();
  for (const ns of Object.keys(resources.en)) {
    it(`${ns}: es and pt have exactly the English keys, placeholders and tags`, () => {
      const en = flatten(resources.en[ns]);
      expect(Object.keys(en).length).toBeGreaterThan(0);
      for (const lng of ['es', 'pt']) {
        const other = flatten(resources[lng][ns]);
        expect(Object.keys(other).sort(), `${lng}/${ns}`).toEqual(Object.keys(en).sort());
        for (const key of Object.keys(en)) {
          expect(other[key].trim(), `${lng}/${ns}:${key}`).not.toBe('');
          expect(tokens(other[key]), `${lng}/${ns}:${key}`).toEqual(tokens(en[key]));
        }
      }
    });
  }

  // Spanish and Portuguese take `_many` for a multiple of a million (Intl.PluralRules: 1000000 is
  // "many"); a key without it falls back to English there.
  it('every plural with a one form has a many form', () => {
    for (const lng of ['en', 'es', 'pt']) {
      for (const ns of Object.keys(resources[lng])) {
        const keys = Object.keys(flatten(resources[lng][ns]));
        const missing = keys.filter((k) => k.endsWith('_one') && !keys.includes(`${k.slice(0, -4)}_many`));
        expect(missing, `${lng}/${ns}`).toEqual([]);
      }
    }
  });
});
