import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS, placeholders, renderError, type ErrorCode } from '../../contract/errors/index.ts';

// Every code the server can throw is in the ERRORS catalogue (the error classes take an
// ErrorCode, so anything else does not compile). Each must have a real Spanish and Portuguese
// translation, with the same placeholders, or a user of that language sees English or a hole.

const LOCALES = path.resolve(import.meta.dirname, '../../src/i18n/locales');
function translations(lng: string): Record<string, string> {
  const dir = path.join(LOCALES, lng, 'errors');
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    for (const [k, v] of Object.entries(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, string>)) {
      if (k in out) throw new Error(`${lng}/errors: ${k} is translated twice (${f})`);
      out[k] = v;
    }
  }
  return out;
}

/** Texts that are the same word in every language (a brand, a format name). */
const SAME_IN_EVERY_LANGUAGE = new Set<string>(['field.email']); // Portuguese says e-mail too

describe('error codes', () => {
  const codes = Object.keys(ERRORS) as ErrorCode[];

  it('are stable machine strings', () => {
    // Field labels keep the field's own name (`field.priceCents`): the client looks them up by it.
    for (const code of codes) expect(code).toMatch(/^([a-z]+(\.[a-z0-9_]+)+|field\.[A-Za-z0-9]+)$/);
  });

  for (const lng of ['es', 'pt']) {
    it(`each has a real ${lng} translation with the same placeholders`, () => {
      const t = translations(lng);
      const problems: string[] = [];
      for (const code of codes) {
        const text = t[code];
        if (!text?.trim()) problems.push(`${code}: missing`);
        else if (text === ERRORS[code] && !SAME_IN_EVERY_LANGUAGE.has(code)) problems.push(`${code}: still English`);
        else if (placeholders(text).join() !== placeholders(ERRORS[code]).join())
          problems.push(`${code}: placeholders ${placeholders(text).join()} ≠ ${placeholders(ERRORS[code]).join()}`);
      }
      for (const key of Object.keys(t)) if (!(key in ERRORS)) problems.push(`${key}: translated but no such code`);
      expect(problems).toEqual([]);
    });
  }

  it('render their English message from the params', () => {
    expect(renderError('validation.unknown_field', { field: 'roles' })).toBe('Unknown field: roles.');
    expect(renderError('request.not_found')).toBe('Not found.');
  });
});
