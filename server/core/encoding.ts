// What a request accepts (Accept-Encoding, RFC 9110 §12.5.3) and which copy it already holds
// (If-None-Match, §13.1.2). Both run on the hot path of cached answers and pages: no allocation,
// and a fast path for the headers browsers send (`gzip, deflate, br, zstd`: no weights).

/** Content codings we send. */
export type Coding = 'br' | 'gzip' | 'identity';

/**
 * Whether a client that sent this Accept-Encoding takes `coding`: named with a weight above 0, or
 * not named while `*` is (with a weight above 0). `identity` is taken unless refused (`identity;q=0`,
 * or `*;q=0` without naming it). No header: only identity (what most servers do; RFC 9110 allows
 * any coding then, but a client that says nothing rarely decodes anything). `x-gzip` is gzip
 * (§8.4.1.3); names are case-insensitive; an unreadable weight refuses the coding (identity is
 * always there to fall back on).
 */
export function accepts(header: string | undefined, coding: Coding): boolean {
  if (header === undefined) return coding === 'identity';
  // Fast path: no weights and no `*`, so a named coding is taken and any other is not (in lower case, as browsers write them).
  if (header.indexOf(';') < 0 && header.indexOf('*') < 0) {
    if (named(header, coding) || (coding === 'gzip' && named(header, 'x-gzip'))) return true;
    if (!UPPER.test(header)) return coding === 'identity';
  }
  let own = -1; // the coding's weight, if named (-1: not named)
  let star = -1;
  const n = header.length;
  let i = 0;
  while (i < n) {
    let c = header.charCodeAt(i);
    if (c === 44 || c === 32 || c === 9) {
      i++; // between elements: commas, spaces, tabs
      continue;
    }
    const start = i;
    while (i < n && (c = header.charCodeAt(i)) !== 44 && c !== 59 && c !== 32 && c !== 9) i++;
    const end = i;
    let q = 1;
    // Its parameters, up to the next comma: only q counts.
    while (i < n && (c = header.charCodeAt(i)) !== 44) {
      i++;
      if (c !== 59) continue;
      while (i < n && ((c = header.charCodeAt(i)) === 32 || c === 9)) i++;
      if (i + 1 < n && (header.charCodeAt(i) | 0x20) === 113 && header.charCodeAt(i + 1) === 61) {
        const from = (i += 2);
        while (i < n && (c = header.charCodeAt(i)) !== 44 && c !== 59 && c !== 32 && c !== 9) i++;
        q = weight(header, from, i);
      }
    }
    if (end - start === 1 && header.charCodeAt(start) === 42) star = Math.max(star, q);
    else if (sameName(header, start, end, coding) || (coding === 'gzip' && sameName(header, start, end, 'x-gzip'))) own = Math.max(own, q);
  }
  if (own >= 0) return own > 0;
  if (star >= 0) return star > 0;
  return coding === 'identity';
}

/** Whether `coding` is one of the comma-separated names of a header without weights (lower case, as browsers send them). */
function named(header: string, coding: string): boolean {
  let at = header.indexOf(coding);
  while (at >= 0) {
    const before = at === 0 ? 44 : header.charCodeAt(at - 1);
    const after = at + coding.length === header.length ? 44 : header.charCodeAt(at + coding.length);
    if ((before === 44 || before === 32 || before === 9) && (after === 44 || after === 32 || after === 9)) return true;
    at = header.indexOf(coding, at + 1);
  }
  return false;
}

function sameName(header: string, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let k = 0; k < name.length; k++) {
    const c = header.charCodeAt(start + k);
    if ((c >= 65 && c <= 90 ? c | 0x20 : c) !== name.charCodeAt(k)) return false;
  }
  return true;
}

const UPPER = /[A-Z]/;

/** A qvalue (`0`, `0.5`, `1.000`), read in place; anything else weighs 0. */
function weight(header: string, from: number, to: number): number {
  const first = header.charCodeAt(from);
  if (from === to || (first !== 48 && first !== 49)) return 0;
  if (from + 1 === to) return first - 48;
  if (header.charCodeAt(from + 1) !== 46) return 0; // `0.` or `1.` and digits
  let v = first - 48;
  let scale = 0.1;
  for (let k = from + 2; k < to; k++, scale /= 10) {
    const d = header.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return 0;
    v += d * scale;
  }
  return Math.min(v, 1);
}

/**
 * Whether an If-None-Match header names `etag` (a strong tag, `"…"`), by the weak comparison GET
 * uses (§13.1.2: `W/"x"` matches `"x"`), in a list or as `*`.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true; // what a browser sends back: the tag it got
  if (header.trim() === '*') return true;
  let at = header.indexOf(etag);
  while (at >= 0) {
    let b = at - 1;
    if (b >= 1 && header.charCodeAt(b) === 47 && (header.charCodeAt(b - 1) | 0x20) === 119) b -= 2; // W/
    while (b >= 0 && (header.charCodeAt(b) === 32 || header.charCodeAt(b) === 9)) b--;
    let a = at + etag.length;
    while (a < header.length && (header.charCodeAt(a) === 32 || header.charCodeAt(a) === 9)) a++;
    if ((b < 0 || header.charCodeAt(b) === 44) && (a === header.length || header.charCodeAt(a) === 44)) return true;
    at = header.indexOf(etag, at + 1);
  }
  return false;
}
