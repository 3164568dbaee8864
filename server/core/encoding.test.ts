import { describe, expect, it } from 'vitest';
import { accepts, noneMatch } from './encoding.ts';

// Accept-Encoding (RFC 9110 §12.5.3) and If-None-Match (§13.1.2), as the cached answers, the pages,
// the sitemap and the uploads read them.

describe('accepts', () => {
  it('takes a coding a browser names, and refuses one it does not', () => {
    for (const h of ['gzip, deflate, br, zstd', 'gzip, deflate, br', 'br', 'deflate,br', 'br ,gzip', 'gzip,\tbr']) expect(accepts(h, 'br'), h).toBe(true);
    for (const h of ['gzip, deflate', 'gzip, brotli', 'x-br', 'gzip, deflate, zstd', '', 'identity']) expect(accepts(h, 'br'), h).toBe(false);
    expect(accepts('deflate, x-gzip', 'gzip')).toBe(true); // the same coding (§8.4.1.3)
    expect(accepts('GZip, BR', 'br')).toBe(true); // names are case-insensitive
    expect(accepts('GZip, BR', 'gzip')).toBe(true);
  });

  it('refuses a coding weighted 0, whatever its spelling, and takes one weighted above 0', () => {
    const cases: [string, boolean][] = [
      ['gzip, br;q=0', false],
      ['br;q=0, gzip', false],
      ['br; q=0', false],
      ['br ;Q=0.000', false],
      ['br;q=0.', false],
      ['br;q=0.001', true],
      ['br;q=1', true],
      ['br;q=1.0, gzip;q=0.5', true],
      ['gzip;q=1, br;level=3;q=0', false],
      ['br;q=nonsense', false], // an unreadable weight: refused, the plain body is always acceptable
      ['br;q=2', false],
    ];
    for (const [h, taken] of cases) expect(accepts(h, 'br'), h).toBe(taken);
  });

  it('reads `*` as every coding not named, and names before `*`', () => {
    expect(accepts('*', 'br')).toBe(true);
    expect(accepts('gzip;q=1, *;q=0', 'br')).toBe(false);
    expect(accepts('gzip;q=1, *;q=0', 'gzip')).toBe(true);
    expect(accepts('br;q=0, *', 'br')).toBe(false);
    expect(accepts('br, *;q=0', 'br')).toBe(true);
  });

  it('takes identity unless it is refused, and only identity without a header', () => {
    expect(accepts(undefined, 'br')).toBe(false);
    expect(accepts(undefined, 'gzip')).toBe(false);
    expect(accepts(undefined, 'identity')).toBe(true);
    expect(accepts('', 'identity')).toBe(true);
    expect(accepts('gzip, br', 'identity')).toBe(true);
    expect(accepts('br, identity;q=0', 'identity')).toBe(false);
    expect(accepts('br, *;q=0', 'identity')).toBe(false);
    expect(accepts('br, identity, *;q=0', 'identity')).toBe(true);
  });

  it('reads a long or malformed header in one pass without throwing', () => {
    expect(accepts(`${'x, '.repeat(10_000)}br`, 'br')).toBe(true);
    for (const h of [';;;', ',,,', 'q=0', ';q=0', 'br;', 'br;q', 'br;q=', '*;', ' ', 'W/"']) expect(() => accepts(h, 'br'), h).not.toThrow();
    expect(accepts('br;q=', 'br')).toBe(false);
  });
});

describe('noneMatch', () => {
  const tag = '"abc-br"';
  it('matches the tag, in a list, weak or strong, and `*`', () => {
    for (const h of ['"abc-br"', 'W/"abc-br"', '"x", "abc-br"', '"abc-br","y"', ' "x" ,  W/"abc-br" , "y"', '*']) expect(noneMatch(h, tag), h).toBe(true);
  });

  it('matches no other tag, not even one that contains it', () => {
    for (const h of [undefined, '', '"abc"', '"abc-gz"', '"xabc-br"', '"abc-br"x', 'x"abc-br"', 'W/', 'W/"', '"x", "y"', 'x'.repeat(10_000)]) {
      expect(noneMatch(h, tag), String(h)).toBe(false);
    }
  });
});
