import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, type BrotliOptions } from 'node:zlib';

// A served page is a prefix that only depends on the language and the kind of page (the template's
// start and the page's CSS: 19-22 kB of a 28 kB page) followed by what this page holds. Brotli
// cannot join two compressed streams in general, but it can here:
//
// - the prefix is compressed once, at the best quality, and flushed (it ends on a byte boundary,
//   at the end of a meta-block, not the last one);
// - the rest is compressed at quality 0, whose encoder compresses every input "independently
//   from the input history" (brotli's enc/compress_fragment.c): its copies reach back only into
//   its own bytes, it names a distance before reusing it ("last distance"), uses no static
//   dictionary and one literal code (no context modelling). So its meta-blocks decode the same
//   after any prefix, once its stream header (the window size) is taken off;
// - that header is 4 bits (a window of 2^18: quality 0 never uses less), so the rest's meta-blocks
//   start 4 bits into its first byte. Shifting every bit would misplace the byte alignment its
//   uncompressed meta-blocks rely on (incompressible stretches); instead the prefix ends 4 bits
//   into a byte too: after it comes one meta-block of spaces written here, 194 of them, whose
//   length in bits is 4 past a byte boundary. Its last 4 bits and the rest's first byte, header
//   bits replaced, make one byte.
//
// The page's HTML carries those spaces (in its head, where whitespace means nothing). Per page
// this costs the compression of ~10 kB instead of ~28 kB (~35 µs instead of ~85 µs for an ad),
// a cached page keeps only its own part (3.8 kB instead of 9.5 kB for an ad: 2.5 times as many
// pages in the same memory), and the page is smaller on the wire (the CSS at quality 11: 8.3 kB).

const RESIDUE = 4;
const QUALITY_0 = { params: { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_LGWIN]: 18 } };

/** A compressed prefix that a quality-0 stream can follow. */
export interface BrotliHead {
  /** Every byte of the prefix's stream but the last, partial one. */
  bytes: Buffer;
  /** The last byte: its low RESIDUE bits are the stream's, the others belong to what follows. */
  last: number;
}

/** The joining meta-block's text. */
const SPACES = ' '.repeat(194);

/** The stream-header length, in bits, of a brotli stream starting with this byte (window bits, RFC 7932 §9.1). */
export function headerBits(first: number): number {
  if ((first & 1) === 0) return 1;
  return (first & 0x0e) !== 0 ? 4 : 7;
}

/** A compressed meta-block (not the last) of the 194 spaces, in exactly 8k + RESIDUE bits (RFC 7932 §9.2). */
function spacesMetaBlock(): Buffer {
  const bits: number[] = [];
  const put = (n: number, v: number) => {
    for (let i = 0; i < n; i++) bits.push((v >>> i) & 1);
  };
  put(1, 0); // ISLAST
  put(2, 0); // MNIBBLES - 4: four nibbles
  put(16, SPACES.length - 1); // MLEN - 1
  put(1, 0); // ISUNCOMPRESSED
  put(3, 0); // one block type of literals, of commands, of distances
  put(2, 0); // NPOSTFIX
  put(4, 0); // NDIRECT
  put(2, 0); // the literals' context mode
  put(2, 0); // one literal code, one distance code
  put(2, 1); // literal code: simple, one symbol (0 bits a literal), 8-bit symbols
  put(2, 0);
  put(8, 0x20);
  put(2, 1); // insert-and-copy code: simple, one symbol: insert code 17 (194 + 7 extra bits), copy code 0
  put(2, 0);
  put(10, 448 + ((17 & 7) << 3));
  put(2, 1); // distance code: simple, one symbol (never read: the meta-block ends after the literals)
  put(2, 0);
  put(6, 0);
  put(7, 0); // the insert length's extra bits: 194 is the code's base
  if (bits.length % 8 !== RESIDUE) throw new Error('the spaces meta-block must end 4 bits into a byte');
  const out = Buffer.alloc(Math.ceil(bits.length / 8));
  bits.forEach((b, i) => {
    out[i >> 3] |= b << (i & 7);
  });
  return out;
}

const headOptions = (prefix: Buffer): BrotliOptions => ({
  finishFlush: constants.BROTLI_OPERATION_FLUSH,
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 18, [constants.BROTLI_PARAM_SIZE_HINT]: prefix.length },
});

/** What a head made of this prefix decodes to: the prefix and the spaces of the joining meta-block. */
export function headText(prefix: Buffer): Buffer {
  return Buffer.concat([prefix, Buffer.from(SPACES)]);
}

/** Compresses a prefix, then 194 spaces (`headText`), so that `joinBrotli` can add any page's rest. */
export function brotliHead(prefix: Buffer): BrotliHead {
  return withSpaces(brotliCompressSync(prefix, headOptions(prefix)));
}

/**
 * The same on libuv's threads: quality 11 takes ~30 ms for a 19 kB prefix, which the server's
 * event loop should not wait for (one prefix per language and kind of page, after each start).
 */
export async function brotliHeadOffThread(prefix: Buffer): Promise<BrotliHead> {
  return withSpaces(await promisify(brotliCompress)(prefix, headOptions(prefix)));
}

function withSpaces(flushed: Buffer): BrotliHead {
  const spaces = spacesMetaBlock();
  return {
    bytes: Buffer.concat([flushed, spaces.subarray(0, spaces.length - 1)]),
    last: spaces[spaces.length - 1],
  };
}

/** The rest of a page, compressed to follow a BrotliHead; null in the (unexpected) case its stream cannot. */
export function brotliTail(rest: Buffer): Buffer | null {
  const out = brotliCompressSync(rest, QUALITY_0);
  return headerBits(out[0]) === RESIDUE ? out : null;
}

/** One brotli stream: the head's, then the tail's meta-blocks. */
export function joinBrotli(head: BrotliHead, tail: Buffer): Buffer {
  const out = Buffer.allocUnsafe(head.bytes.length + tail.length);
  head.bytes.copy(out, 0);
  tail.copy(out, head.bytes.length);
  const mask = (1 << RESIDUE) - 1;
  out[head.bytes.length] = (head.last & mask) | (tail[0] & ~mask & 0xff);
  return out;
}
