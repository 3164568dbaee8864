// A JSON body is UTF-8 (RFC 8259 §8.1): one declared in another charset, or whose bytes are not
// UTF-8, is refused with a coded answer, never stored with its letters replaced by U+FFFD.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, type TestContext } from './test/harness.ts';
import { declaresUtf8 } from './app.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const MESSAGE = 'Señor José keeps a girl at the motel on 5th street';
const report = (contentType: string, payload: Buffer | string) =>
  ctx.app.inject({ method: 'POST', url: '/api/reports', headers: { 'content-type': contentType }, payload });
const reportJson = (message = MESSAGE) => JSON.stringify({ kind: 'trafficking', message });

async function storedMessages() {
  const admin = await asAdmin(ctx);
  const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-reports', headers: { cookie: admin.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().reports as { message: string }[]).map((r) => r.message);
}

describe('JSON bodies are read as UTF-8 or refused', () => {
  // Copied from server/test/probe7-parsing.test.ts.
  it('refuses a body declared in another charset (415) and one whose bytes are not UTF-8 (400), storing neither', async () => {
    const declared = await report('application/json; charset=iso-8859-1', Buffer.from(reportJson(), 'latin1'));
    const undeclared = await report('application/json', Buffer.from(reportJson(MESSAGE.replace('5th', '6th')), 'latin1'));
    expect({ status: declared.statusCode, body: declared.json() }).toEqual({
      status: 415,
      body: { message: 'Unsupported content type.', code: 'request.unsupported_media_type' },
    });
    expect({ status: undeclared.statusCode, body: undeclared.json() }).toEqual({
      status: 400,
      body: { message: 'The request body is not valid JSON.', code: 'request.invalid_json' },
    });
    expect(await storedMessages()).toEqual([]);
  });

  it('refuses a repeated charset parameter when any of them is not UTF-8', async () => {
    for (const contentType of ['application/json; charset=utf-8; charset=iso-8859-1', 'application/json; charset=latin1; charset=utf-8']) {
      const res = await report(contentType, reportJson());
      expect({ contentType, status: res.statusCode, code: res.json().code }).toEqual({ contentType, status: 415, code: 'request.unsupported_media_type' });
    }
    expect(await storedMessages()).toEqual([]);
  });

  it('takes UTF-8 as declared in any case or quoted, or undeclared, with or without a leading BOM', async () => {
    const bodies: [string, Buffer | string][] = [
      ['application/json', reportJson('a: Señor José, in plain UTF-8')],
      ['application/json; charset=UTF-8', reportJson('b: Señor José, charset in capitals')],
      ['application/json;charset="utf-8"', reportJson('c: Señor José, charset quoted')],
      ['application/json; charset=utf-8; charset=Utf-8', reportJson('d: Señor José, charset twice')],
      ['application/json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(reportJson('e: Señor José, after a BOM'))])],
    ];
    for (const [contentType, payload] of bodies) {
      const res = await report(contentType, payload);
      expect(res.statusCode, `${contentType}: ${res.body}`).toBe(201);
    }
    expect((await storedMessages()).sort()).toEqual([
      'a: Señor José, in plain UTF-8',
      'b: Señor José, charset in capitals',
      'c: Señor José, charset quoted',
      'd: Señor José, charset twice',
      'e: Señor José, after a BOM',
    ]);
  });

  it('keeps Fastify’s refusals: prototype poisoning and malformed or empty JSON are 400, past 1 MB is 413', async () => {
    const poisoned = [
      '{"kind":"trafficking","message":"a message long enough","__proto__":{"isAdmin":true}}',
      '{"kind":"trafficking","message":"a message long enough","constructor":{"prototype":{"isAdmin":true}}}',
      '{"kind":',
      '',
    ];
    for (const payload of poisoned) {
      const res = await report('application/json', payload);
      expect({ payload, status: res.statusCode, code: res.json().code }).toEqual({ payload, status: 400, code: 'request.invalid_json' });
    }
    const big = await report('application/json', reportJson('x'.repeat(1024 * 1024)));
    expect({ status: big.statusCode, code: big.json().code }).toEqual({ status: 413, code: 'request.too_large' });
    expect(await storedMessages()).toEqual([]);
  });
});

describe('JSON bodies with half of a UTF-16 pair', () => {
  // JSON can escape half of a pair ("\ud83d"), which UTF-8 cannot hold: SQLite stored a report's
  // message with U+FFFD in its place. Refused naming the field, as the multipart reader does for an
  // ad's text; whole pairs, escaped or not, are taken.
  const FORMAT = { rule: 'format', reason: 'is not in the expected form' };
  it('refuses it in a value, naming the field, and stores nothing', async () => {
    const res = await report('application/json', '{"kind":"trafficking","message":"She is 16 \\ud83d at the motel"}');
    expect({ status: res.statusCode, code: res.json().code, params: res.json().params }).toEqual({
      status: 400,
      code: 'validation.invalid',
      params: { field: 'message', ...FORMAT },
    });
    const low = await report('application/json', '{"kind":"trafficking","message":"She is 16 at the motel \\uDC8B"}');
    expect({ status: low.statusCode, field: low.json().params.field }).toEqual({ status: 400, field: 'message' });
    expect(await storedMessages()).toEqual([]);
  });

  it('names a nested value by its path and a bad key by where it sits', async () => {
    const admin = await asAdmin(ctx);
    const put = (payload: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/reports', headers: { 'content-type': 'application/json', cookie: admin.cookie }, payload });
    const nested = await put('{"kind":"trafficking","message":"a message long enough","x":{"y":["ok","\\ud800"]}}');
    expect({ status: nested.statusCode, field: nested.json().params.field }).toEqual({ status: 400, field: 'x.y.1' });
    const key = await put('{"kind":"trafficking","message":"a message long enough","\\ud800":1}');
    expect({ status: key.statusCode, field: key.json().params.field }).toEqual({ status: 400, field: 'input' });
    expect(await storedMessages()).toEqual([]);
  });

  it('takes whole pairs, escaped or written, and an escaped backslash before "ud800"', async () => {
    for (const payload of [
      '{"kind":"trafficking","message":"a: kiss \\ud83d\\udc8b at the motel"}',
      '{"kind":"trafficking","message":"b: kiss 💋 at the motel"}',
      '{"kind":"trafficking","message":"c: a path C:\\\\ud800 at the motel"}',
    ]) {
      const res = await report('application/json', payload);
      expect(res.statusCode, `${payload}: ${res.body}`).toBe(201);
    }
    expect((await storedMessages()).sort()).toEqual(['a: kiss 💋 at the motel', 'b: kiss 💋 at the motel', 'c: a path C:\\ud800 at the motel']);
  });
});

describe('declaresUtf8', () => {
  it('reads every charset parameter, in any case, quoted or not, ignoring the others', () => {
    const cases: [string | undefined, boolean][] = [
      [undefined, true],
      ['application/json', true],
      ['application/json; charset=utf-8', true],
      ['application/json; CHARSET = "UTF-8" ', true],
      ['application/json; version=2', true],
      ['application/json; charset=utf8', false],
      ['application/json; charset=utf-16', false],
      ['application/json; charset="utf-8', false],
      ['application/json; charset=utf-8; charset=us-ascii', false],
    ];
    expect(cases.map(([ct]) => [ct, declaresUtf8(ct)])).toEqual(cases);
  });
});
