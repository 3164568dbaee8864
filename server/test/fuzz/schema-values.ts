import type { Rng } from './rng.ts';
import type { JsonSchema } from './schema-map.ts';
import * as V from './values.ts';

// Reading a route's JSON schema: a value it accepts, the paths of its fields, and the values that
// sit on or just past each field's limits.

const typeOf = (s: JsonSchema | undefined): string | undefined => {
  if (!s) return undefined;
  if (s.const !== undefined) return typeof s.const;
  if (s.enum?.length) return typeof s.enum[0];
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return typeOf(alts.find((a) => a.type !== 'null') ?? alts[0]);
  return Array.isArray(s.type) ? s.type[0] : s.type;
};

/** A value the schema accepts. */
export function sampleValid(s: JsonSchema | undefined): unknown {
  if (!s) return 'x';
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return sampleValid(alts.find((a) => a.type !== 'null') ?? alts[0]);
  switch (typeOf(s)) {
    case 'string':
      if (s.pattern) for (const c of ['a', 'abc', 'a1', '1', 'A']) if (new RegExp(s.pattern, 'u').test(c)) return c;
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? (s.maximum !== undefined ? Math.min(1, s.maximum) : 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sampleValid(s.items));
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {})
          .filter(([k]) => s.required?.includes(k))
          .map(([k, p]) => [k, sampleValid(p)]),
      );
  }
  return 'x';
}

export interface FieldPath {
  path: (string | number)[];
  schema: JsonSchema;
  required: boolean;
}

export function fieldPaths(s: JsonSchema | undefined, prefix: (string | number)[] = [], depth = 0): FieldPath[] {
  const out: FieldPath[] = [];
  for (const [k, p] of Object.entries(s?.properties ?? {})) {
    const path = [...prefix, k];
    out.push({ path, schema: p, required: !!s?.required?.includes(k) });
    if (typeOf(p) === 'array' && p.items) out.push({ path: [...path, 0], schema: p.items, required: true });
    if (typeOf(p) === 'object' && depth < 2) out.push(...fieldPaths(p, path, depth + 1));
  }
  return out;
}

export function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node: Record<string | number, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i];
    if (!node[k] || typeof node[k] !== 'object') node[k] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[k] as Record<string | number, unknown>;
  }
  node[path.at(-1)!] = value;
}

export function deleteAt(root: Record<string, unknown>, path: (string | number)[]): void {
  let node: Record<string | number, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) {
    if (!node[path[i]] || typeof node[path[i]] !== 'object') return;
    node = node[path[i]] as Record<string | number, unknown>;
  }
  const last = path.at(-1)!;
  if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
  else delete node[last];
}

// ---- values aimed at one field

const boundaryCache = new WeakMap<JsonSchema, Map<string, V.Labeled<unknown>[]>>();
export function boundaryValues(s: JsonSchema, seedValue: unknown): V.Labeled<unknown>[] {
  let bySeed = boundaryCache.get(s);
  if (!bySeed) boundaryCache.set(s, (bySeed = new Map()));
  const key = typeof seedValue === 'string' ? seedValue : (JSON.stringify(seedValue) ?? '');
  let values = bySeed.get(key);
  if (!values) bySeed.set(key, (values = makeBoundaryValues(s, seedValue)));
  return values;
}

function makeBoundaryValues(s: JsonSchema, seedValue: unknown): V.Labeled<unknown>[] {
  const out: V.Labeled<unknown>[] = [];
  const t = typeOf(s);
  if (t === 'string') {
    const max = s.maxLength;
    const min = s.minLength ?? 0;
    if (max !== undefined) {
      out.push(['len=max', 'x'.repeat(max)], ['len=max+1', 'x'.repeat(max + 1)], ['astral=max', '😀'.repeat(max)], ['astral=max+1', '😀'.repeat(max + 1)]);
      out.push(['2byte=max', 'é'.repeat(max)], ['combining=max', 'e\u0301'.repeat(Math.ceil(max / 2))], ['nul-padded=max', '\u0000'.repeat(max)]);
    }
    if (min > 0) out.push(['len=min-1', 'x'.repeat(min - 1)]);
    if (typeof seedValue === 'string') {
      out.push(
        ['seed-upper', seedValue.toUpperCase()],
        ['seed-padded', ` ${seedValue} `],
        ['seed+nul', `${seedValue}\u0000`],
        ['seed+suffix', `${seedValue}x`],
      );
      out.push(
        ['seed-fullwidth', seedValue.replace(/[a-z0-9]/gi, (c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0))],
        ['seed+rtl', `\u202e${seedValue}`],
      );
      out.push(['seed-homoglyph', seedValue.replace(/a/g, 'а').replace(/e/g, 'е').replace(/o/g, 'о')]);
    }
    if (s.pattern) out.push(['pattern-upper', 'ABC'], ['pattern-dash', 'a-b'], ['pattern-dot', 'a.b'], ['pattern-41', 'a'.repeat(41)]);
  } else if (t === 'number' || t === 'integer') {
    if (s.minimum !== undefined) out.push(['min', s.minimum], ['min-1', s.minimum - 1], ['min-0.5', s.minimum - 0.5]);
    if (s.maximum !== undefined) out.push(['max', s.maximum], ['max+1', s.maximum + 1], ['max+0.5', s.maximum + 0.5]);
    out.push(
      ['-0', new V.RawJson('-0')],
      ['0.5', 0.5],
      ['1e400', new V.RawJson('1e400')],
      ['2^53+1', new V.RawJson('9007199254740993')],
      ['-2^63', new V.RawJson('-9223372036854775808')],
    );
  } else if (t === 'array') {
    const item = sampleValid(s.items);
    out.push(['empty-array', []], ['dupes', [item, item]], ['wrong-items', [1, null, {}]], ['nested', [[item]]]);
    if (s.maxItems !== undefined)
      out.push([`items=max+1(${s.maxItems + 1})`, Array.from({ length: s.maxItems + 1 }, (_, i) => (typeof item === 'string' ? `${item}${i}` : item))]);
    if (s.maxItems !== undefined)
      out.push([`items=max`, Array.from({ length: s.maxItems }, (_, i) => (typeof item === 'string' ? `${item.slice(0, 30)}${i}` : item))]);
    out.push(['items=5000', new V.RawJson(`[${Array.from({ length: 5000 }, (_, i) => JSON.stringify(typeof item === 'string' ? `i${i}` : item)).join(',')}]`)]);
  } else if (t === 'boolean') {
    out.push(['string-true', 'true'], ['string-false', 'false'], ['one', 1], ['zero', 0], ['array-true', [true]], ['string-1', '1'], ['empty', '']);
  }
  if (s.enum || s.const !== undefined || s.anyOf) {
    const v = String(sampleValid(s));
    out.push(['enum-upper', v.toUpperCase()], ['enum-padded', ` ${v}`], ['enum-prefix', v.slice(0, -1)], ['enum-array', [v]], ['enum-unknown', 'ALL']);
  }
  return out;
}

export function coercionBait(s: JsonSchema): V.Labeled<unknown>[] {
  switch (typeOf(s)) {
    case 'integer':
    case 'number':
      return [
        ['string-1', '1'],
        ['string-space-1', ' 1'],
        ['string-1e2', '1e2'],
        ['array-1', [1]],
        ['true', true],
        ['string-Infinity', 'Infinity'],
        ['string-empty', ''],
      ];
    case 'boolean':
      return [
        ['string-true', 'true'],
        ['one', 1],
        ['array', [true]],
        ['null', null],
      ];
    case 'string':
      return [
        ['number', 123],
        ['true', true],
        ['array', ['x']],
        ['object', { toString: 'x' }],
        ['neg-zero', new V.RawJson('-0')],
      ];
    case 'array':
      return [
        ['csv', 'a,b'],
        ['object-indexed', { 0: 'x', length: 1 }],
        ['string', 'x'],
      ];
    default:
      return [
        ['number', 1],
        ['string', 'x'],
      ];
  }
}

export function badValueFor(s: JsonSchema, seedValue: unknown, rng: Rng): V.Labeled<unknown> {
  const r = rng.next();
  if (r < 0.25) return rng.pick(V.ANY_BAD_JSON);
  if (r < 0.38) return rng.pick(V.BAD_STRINGS.map(([l, v]) => [`string:${l}`, v] as const));
  if (r < 0.5) return rng.pick(V.BAD_NUMBERS.map(([l, v]) => [`number:${l}`, v] as const));
  if (r < 0.56) return rng.pick(V.BAD_SHAPES.map(([l, v]) => [`shape:${l}`, v] as const));
  if (r < 0.6) return rng.pick(V.NOT_JSON_NUMBERS.map(([l, v]) => [`notjson:${l}`, v] as const));
  const boundary = boundaryValues(s, seedValue);
  if (r < 0.88 && boundary.length) return rng.pick(boundary.map(([l, v]) => [`boundary:${l}`, v] as const));
  return rng.pick(coercionBait(s).map(([l, v]) => [`coerce:${l}`, v] as const));
}
