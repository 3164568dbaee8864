import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { asAdmin, createTestApp, makeUser, type TestContext } from './harness.ts';
import { API } from '../../contract/api/index.ts';
import { ERRORS } from '../../contract/errors/index.ts';
import { fieldLabelKey } from '../../contract/errors/fields.ts';
import { translateError } from '../../src/i18n/errors.ts';

// Error answers at the edges of the request (the router, the body parsers, the schemas' paths):
// each is {message, code} with a catalogue code, and the client shows it in the page's language.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

type Lng = 'es' | 'pt';
type Body = { code: string; message: string; params?: Record<string, string | number> };

const LOCALES = path.resolve(import.meta.dirname, '../../src/i18n/locales');
function errorTexts(lng: Lng): Record<string, string> {
  const dir = path.join(LOCALES, lng, 'errors');
  return Object.assign({}, ...fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))));
}

/** The message the client shows for an error answer, in a page of language `lng` (src/i18n/errors.ts). */
async function shownIn(lng: Lng, body: Body) {
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { [lng]: { errors: errorTexts(lng) } }, interpolation: { escapeValue: false } });
  return translateError(i18n.t.bind(i18n) as never, body.code, body.params, body.message);
}

/** A multipart body of `count` plain fields. */
function fieldsForm(names: string[]) {
  const b = 'EDGEBOUNDARY';
  let payload = '';
  for (const name of names) payload += `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nx\r\n`;
  payload += `--${b}--\r\n`;
  return { payload, contentType: `multipart/form-data; boundary=${b}` };
}

describe('the router refuses a URL with a coded answer', () => {
  it('a malformed percent-escape in an API URL is 400 {message, code} with a catalogue code, API headers on', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/ads/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'message']);
    expect(body).toEqual({ code: 'request.malformed_url', message: ERRORS['request.malformed_url'] });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(await shownIn('es', body)).not.toBe(body.message);
    expect(await shownIn('pt', body)).not.toBe(body.message);
  });

  it('a malformed percent-escape in a page URL is 400 with a page in its language (server/app.error-pages.test.ts), page headers on', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/es/ad/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(errorTexts('es')['request.malformed_url']);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it('a path parameter past the router limit is 414 with a catalogue code', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/ads/${'a'.repeat(101)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ code: 'request.url_too_long', message: ERRORS['request.url_too_long'] });
  });
});

describe('body parsers refuse with a coded answer, not an English reason', () => {
  it('a multipart form with too many fields is 413 request.too_large, shown in Spanish', async () => {
    const user = await makeUser(ctx);
    const form = fieldsForm(Array.from({ length: 35 }, (_, i) => `f${i}`));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/post-ad',
      headers: { cookie: user.cookie, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(413);
    const body = res.json();
    expect(body.code).toBe('request.too_large');
    expect(body.params).toBeUndefined();
    expect(await shownIn('es', body)).toBe(errorTexts('es')['request.too_large']);
  });

  it('a multipart field named __proto__ is 400 request.malformed_upload', async () => {
    const user = await makeUser(ctx);
    const form = fieldsForm(['__proto__']);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/post-ad',
      headers: { cookie: user.cookie, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('request.malformed_upload');
    expect(res.json().params?.reason).toBeUndefined();
  });

  it('a body shorter than its Content-Length is 400 request.length_mismatch', async () => {
    const payload = JSON.stringify({ email: 'someone@example.com', password: 'long enough pw' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', 'content-length': String(payload.length + 10) },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'request.length_mismatch', message: ERRORS['request.length_mismatch'] });
  });
});

describe('a field a validation error names is shown by its label', () => {
  /** Every path a request schema can name (app.ts setErrorHandler: instancePath "/" → "."), and the parts themselves. */
  function schemaFields(): Set<string> {
    const fields = new Set<string>(['body', 'querystring', 'params', 'input']);
    const walk = (s: unknown, at: string) => {
      if (!s || typeof s !== 'object') return;
      const node = s as Record<string, unknown>;
      if (at) fields.add(at);
      if (node.properties) for (const [k, v] of Object.entries(node.properties)) walk(v, at ? `${at}.${k}` : k);
      for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(node[k])) for (const c of node[k] as unknown[]) walk(c, at);
      if (node.items) walk(node.items, `${at}.0`);
      if (node.additionalProperties && typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${at}.x`);
    };
    for (const contract of Object.values(API) as Record<string, unknown>[]) for (const part of ['body', 'querystring', 'params']) walk(contract[part], '');
    return fields;
  }

  it('every field a request schema can name has a label in the catalogue (and so in es and pt)', () => {
    const fields = schemaFields();
    expect(fields.size).toBeGreaterThan(50);
    const unlabelled = [...fields].filter((f) => !(fieldLabelKey(f) in ERRORS)).sort();
    expect(unlabelled).toEqual([]);
  });

  it('an array item takes its array label, a nested value its own name label', () => {
    expect(fieldLabelKey('state')).toBe('field.state');
    expect(fieldLabelKey('adIds.0')).toBe('field.adIds');
    expect(fieldLabelKey('adIds.12')).toBe('field.adIds');
    expect(fieldLabelKey('seen.3.updatedAt')).toBe('field.updatedAt');
    expect(fieldLabelKey('text.en')).toBe('field.en');
  });

  it('a too-long place slug on a Spanish listings page is explained in Spanish, field name included', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/listings?state=${'a'.repeat(121)}` });
    expect(res.statusCode).toBe(400);
    const shown = await shownIn('es', res.json());
    expect(shown).not.toMatch(/\bstate\b/);
    expect(shown).toBe('Valor no válido en estado: como máximo 120 caracteres.');
    expect(await shownIn('pt', res.json())).toMatch(/\bestado\b/);
  });

  it('a refused array item on a Portuguese staff page names the list, not "adIds.0"', async () => {
    const admin = await asAdmin(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/approve-pending-ads',
      headers: { cookie: admin.cookie },
      payload: { adIds: [''], decision: 'approve' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().params.field).toBe('adIds.0');
    const shown = await shownIn('pt', res.json());
    expect(shown).not.toMatch(/adIds/);
    expect(shown).toContain(errorTexts('pt')['field.adIds']);
  });

  it('a refused nested text names it in the page language', async () => {
    const shown = await shownIn('es', { code: 'validation.invalid', message: '', params: { field: 'text.es', rule: 'too_long', limit: 1000, reason: 'x' } });
    expect(shown).toBe('Valor no válido en texto en español: como máximo 1000 caracteres.');
  });
});
