import type { Rng } from './rng.ts';

// multipart/form-data bodies, well-formed and not. Built by hand (not FormData) so the fuzzer can
// break any byte of them: the boundary, the part headers, the line endings, the end.

export interface Part {
  name?: string;
  filename?: string;
  contentType?: string;
  /** Extra header lines for the part, written as given. */
  headers?: string[];
  /** Replaces the Content-Disposition line entirely (null leaves it out). */
  disposition?: string | null;
  data: Buffer | string;
}

let forms = 0;

export function buildMultipart(
  parts: Part[],
  opts: { boundary?: string; eol?: string; close?: boolean } = {},
): { payload: Buffer; contentType: string; boundary: string } {
  const boundary = opts.boundary ?? `----fuzzform${(++forms).toString(36).padStart(6, '0')}`;
  const eol = opts.eol ?? '\r\n';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const lines = [`--${boundary}`];
    if (p.disposition !== null) {
      let d = p.disposition ?? `Content-Disposition: form-data; name="${p.name ?? ''}"`;
      if (p.disposition === undefined && p.filename !== undefined) d += `; filename="${p.filename}"`;
      lines.push(d);
    }
    if (p.filename !== undefined || p.contentType !== undefined) lines.push(`Content-Type: ${p.contentType ?? 'application/octet-stream'}`);
    if (p.headers) lines.push(...p.headers);
    chunks.push(Buffer.from(lines.join(eol) + eol + eol), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from(eol));
  }
  if (opts.close !== false) chunks.push(Buffer.from(`--${boundary}--${eol}`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}`, boundary };
}

/** Files that are not what an image upload wants, with a label for the report. */
export function badFiles(images: { jpeg: Buffer; png: Buffer; webp: Buffer; gif: Buffer }): [string, Buffer, string][] {
  const pngHeader = (w: number, h: number) => {
    const b = Buffer.from(images.png);
    b.writeUInt32BE(w, 16);
    b.writeUInt32BE(h, 20);
    return b;
  };
  const jpegSof = (w: number, h: number) => {
    // SOI, then a baseline frame header declaring w×h, then nothing.
    const sof = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, h >> 8, h & 0xff, w >> 8, w & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    return sof;
  };
  const webpVp8x = (w: number, h: number) => {
    const b = Buffer.alloc(30);
    b.write('RIFF', 0, 'latin1');
    b.writeUInt32LE(22, 4);
    b.write('WEBPVP8X', 8, 'latin1');
    b.writeUInt32LE(10, 16);
    b.writeUIntLE(w - 1, 24, 3);
    b.writeUIntLE(h - 1, 27, 3);
    return b;
  };
  return [
    ['empty-file', Buffer.alloc(0), 'image/png'],
    ['text-as-png', Buffer.from('this is not an image at all'), 'image/png'],
    ['html', Buffer.from('<html><script>alert(1)</script></html>'), 'text/html'],
    ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'), 'image/svg+xml'],
    ['pdf', Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF'), 'application/pdf'],
    ['gif', images.gif, 'image/gif'],
    ['zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0, 0, 0, 0]), 'application/zip'],
    ['png-signature-only', images.png.subarray(0, 8), 'image/png'],
    ['png-header-only', images.png.subarray(0, 33), 'image/png'],
    ['png-truncated', images.png.subarray(0, Math.floor(images.png.length / 2)), 'image/png'],
    ['png-zero-size', pngHeader(0, 0), 'image/png'],
    ['png-bomb-header-100k', pngHeader(100_000, 100_000), 'image/png'],
    ['png-bomb-header-2^31', pngHeader(0x7fffffff, 0x7fffffff), 'image/png'],
    ['png-bomb-header-2^32-1', pngHeader(0xffffffff, 1), 'image/png'],
    ['png-40mp-lie', pngHeader(6325, 6324), 'image/png'],
    ['jpeg-soi-only', Buffer.from([0xff, 0xd8]), 'image/jpeg'],
    ['jpeg-sof-65535', jpegSof(65535, 65535), 'image/jpeg'],
    ['jpeg-sof-zero', jpegSof(0, 0), 'image/jpeg'],
    ['jpeg-truncated', images.jpeg.subarray(0, Math.floor(images.jpeg.length / 2)), 'image/jpeg'],
    ['jpeg-garbage-tail', Buffer.concat([images.jpeg.subarray(0, 200), Buffer.alloc(500, 0xff)]), 'image/jpeg'],
    ['jpeg-marker-loop', Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(4000, 0xff)]), 'image/jpeg'],
    ['webp-header-only', images.webp.subarray(0, 16), 'image/webp'],
    ['webp-vp8x-16k', webpVp8x(16_384, 16_384), 'image/webp'],
    ['webp-vp8x-max', webpVp8x(0xffffff, 0xffffff), 'image/webp'],
    ['webp-truncated', images.webp.subarray(0, Math.floor(images.webp.length / 2)), 'image/webp'],
    ['jpeg-as-text', images.jpeg, 'text/plain'],
    ['png-named-exe', images.png, 'application/x-msdownload'],
    ['random-bytes', Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) & 0xff)), 'image/jpeg'],
  ];
}

interface Envelope {
  body: string | Buffer;
  contentType: string | null;
}
interface Form {
  built: { payload: Buffer; contentType: string; boundary: string };
  parts: () => Part[];
  fileField: string;
  rng: Rng;
}
const rebuilt = (ps: Part[], opts: Parameters<typeof buildMultipart>[1] = {}): Envelope => {
  const b = buildMultipart(ps, opts);
  return { body: b.payload, contentType: b.contentType };
};

/** Ways to break a form's envelope: its boundary, its end, its line endings, its content type. */
export const ENVELOPE_TWISTS: [string, (f: Form) => Envelope][] = [
  ['no-boundary', (f) => ({ body: f.built.payload, contentType: 'multipart/form-data' })],
  ['empty-boundary', (f) => ({ body: f.built.payload, contentType: 'multipart/form-data; boundary=' })],
  ['wrong-boundary', (f) => ({ body: f.built.payload, contentType: 'multipart/form-data; boundary=not-the-one' })],
  ['quoted-boundary', (f) => ({ body: f.built.payload, contentType: `multipart/form-data; boundary="${f.built.boundary}"` })],
  ['boundary-200', (f) => rebuilt(f.parts(), { boundary: 'b'.repeat(200) })],
  ['boundary-unicode', (f) => rebuilt(f.parts(), { boundary: 'ñ😀ñ' })],
  ['boundary-spaces', (f) => ({ body: f.built.payload, contentType: `multipart/form-data;boundary =  ${f.built.boundary} ; charset=utf-8` })],
  ['multipart-mixed', (f) => ({ body: f.built.payload, contentType: `multipart/mixed; boundary=${f.built.boundary}` })],
  ['charset-utf16', (f) => ({ body: f.built.payload, contentType: `${f.built.contentType}; charset=utf-16` })],
  [
    'truncated-in-headers',
    (f) => ({ body: f.built.payload.subarray(0, Math.min(f.built.payload.length, 20 + f.rng.int(60))), contentType: f.built.contentType }),
  ],
  ['truncated-anywhere', (f) => ({ body: f.built.payload.subarray(0, f.rng.int(f.built.payload.length)), contentType: f.built.contentType })],
  [
    'truncated-before-close',
    (f) => ({ body: f.built.payload.subarray(0, f.built.payload.length - (f.built.boundary.length + 8)), contentType: f.built.contentType }),
  ],
  ['no-closing-boundary', (f) => rebuilt(f.parts(), { close: false })],
  ['lf-only', (f) => rebuilt(f.parts(), { eol: '\n' })],
  ['cr-only', (f) => rebuilt(f.parts(), { eol: '\r' })],
  [
    'preamble-epilogue',
    (f) => ({ body: Buffer.concat([Buffer.from('preamble junk\r\n'), f.built.payload, Buffer.from('epilogue junk')]), contentType: f.built.contentType }),
  ],
  ['garbage', (f) => ({ body: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 17) & 0xff)), contentType: f.built.contentType })],
  ['empty-body', (f) => ({ body: '', contentType: f.built.contentType })],
  ['only-close', (f) => ({ body: `--${f.built.boundary}--\r\n`, contentType: f.built.contentType })],
  ['double-close', (f) => ({ body: Buffer.concat([f.built.payload, Buffer.from(`--${f.built.boundary}--\r\n`)]), contentType: f.built.contentType })],
  ['json-instead', () => ({ body: '{"title":"x"}', contentType: 'application/json' })],
  ['urlencoded-instead', () => ({ body: 'title=x&age=27', contentType: 'application/x-www-form-urlencoded' })],
  ['text-plain-instead', (f) => ({ body: f.built.payload, contentType: 'text/plain' })],
  ['no-content-type', (f) => ({ body: f.built.payload, contentType: null })],
  [
    'nested-multipart',
    (f) => {
      const inner = buildMultipart(f.parts(), { boundary: 'inner-boundary' });
      return rebuilt([{ name: f.fileField, contentType: inner.contentType, data: inner.payload }]);
    },
  ],
];
