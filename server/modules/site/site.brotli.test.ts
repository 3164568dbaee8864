import { randomBytes } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brotliHead, brotliTail, headText, headerBits, joinBrotli } from './site.brotli.ts';

const SPACES = ' '.repeat(194);

// The model: a joined stream decodes to the prefix, the spaces and the rest, byte for byte, as
// Node's decoder (the same library as the browsers') reads it.

const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 400 }).map((s) => Buffer.from(s)),
  fc.constantFrom('<div class="card">', '</a>', 'Café ', '東京 ', '🌸', '\n    ', '&amp;').map((s) => Buffer.from(s)),
  fc.integer({ min: 1, max: 9000 }).map((n) => randomBytes(n)), // incompressible: stored as uncompressed meta-blocks
  fc.integer({ min: 1, max: 3000 }).map((n) => Buffer.from('ab'.repeat(n))), // long copies, repeated distances
);
const text = (max: number) => fc.array(piece, { maxLength: max }).map((parts) => Buffer.concat(parts));

describe('joining a compressed page prefix and a page', () => {
  it('decodes to the prefix, the spaces and the rest, whatever both hold', () => {
    fc.assert(
      fc.property(text(12), fc.array(text(12), { minLength: 1, maxLength: 4 }), (prefix, rests) => {
        const head = brotliHead(prefix);
        expect(headText(prefix).equals(Buffer.concat([prefix, Buffer.from(SPACES)]))).toBe(true);
        for (const rest of rests) {
          const tail = brotliTail(rest);
          expect(tail).not.toBeNull();
          expect(brotliDecompressSync(joinBrotli(head, tail!)).equals(Buffer.concat([prefix, Buffer.from(SPACES), rest]))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('holds for rests longer than a meta-block and than the window, and for an empty one', () => {
    const head = brotliHead(Buffer.from('<!doctype html><html><head><style>body{margin:0}</style>'));
    for (const rest of [Buffer.alloc(0), Buffer.from('x'), randomBytes(300_000), Buffer.from('<p>hello</p>'.repeat(40_000))]) {
      const joined = joinBrotli(head, brotliTail(rest)!);
      expect(
        brotliDecompressSync(joined)
          .subarray(-rest.length || Infinity)
          .equals(rest),
      ).toBe(true);
    }
  });

  it('reads the stream header of each window size', () => {
    for (const [lgwin, bits] of [
      [16, 1],
      [17, 7],
      [18, 4],
      [22, 4],
      [24, 4],
      [10, 7],
      [15, 7],
    ] as const) {
      const out = brotliCompressSync(Buffer.from('hello hello hello'), {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: lgwin },
      });
      expect(headerBits(out[0]), `lgwin ${lgwin}`).toBe(bits);
    }
  });

  it('is smaller than the page compressed whole at quality 0', () => {
    const css = Buffer.from(
      Array.from({ length: 400 }, (_, i) => `._c${i}_x1{display:flex;gap:${i % 9}px;color:#${(i * 2654435761).toString(16).slice(0, 6)}}`).join(''),
    );
    const rest = Buffer.from(Array.from({ length: 20 }, (_, i) => `<article class="_c${i}_x1"><a href="/ad/${i}">Ad ${i}</a></article>`).join(''));
    const joined = joinBrotli(brotliHead(css), brotliTail(rest)!);
    const whole = brotliCompressSync(Buffer.concat([css, Buffer.from(SPACES), rest]), { params: { [constants.BROTLI_PARAM_QUALITY]: 0 } });
    expect(joined.length).toBeLessThan(whole.length);
  });
});
