import { buildMultipart } from './multipart.ts';
import { badValueFor, boundaryValues, coercionBait, deleteAt, fieldPaths, setAt } from './schema-values.ts';
import { JSON_TYPE, memo, seedBodyObject, type Mutator } from './draft.ts';
import * as V from './values.ts';

// Mutators of JSON bodies: one field wrong, missing or extra, the document itself broken, or the
// right document under the wrong content type.

export const bodyField: Mutator = (t, seed, d, rng) => {
  const fields = fieldPaths(t.schema?.body);
  const f = rng.pick(fields);
  const obj = seedBodyObject(seed);
  let seedValue: unknown = obj;
  for (const k of f.path) seedValue = (seedValue as Record<string | number, unknown> | undefined)?.[k];
  const [label, value] = badValueFor(f.schema, seedValue, rng);
  setAt(obj, f.path, value);
  d.body = V.toJsonText(obj);
  return `${f.path.join('.')}=${label}`;
};

export const bodyBoundary: Mutator = (t, seed, d, rng) => {
  const fields = fieldPaths(t.schema?.body);
  const f = rng.pick(fields);
  const obj = seedBodyObject(seed);
  let seedValue: unknown = obj;
  for (const k of f.path) seedValue = (seedValue as Record<string | number, unknown> | undefined)?.[k];
  const options = [...boundaryValues(f.schema, seedValue), ...coercionBait(f.schema)];
  const [label, value] = rng.pick(options);
  setAt(obj, f.path, value);
  d.body = V.toJsonText(obj);
  return `${f.path.join('.')}=${label}`;
};

export const bodyMissing: Mutator = (t, seed, d, rng) => {
  const obj = seedBodyObject(seed);
  const fields = fieldPaths(t.schema?.body).filter((f) => f.path.length === 1);
  if (rng.chance(0.2) || !fields.length) {
    d.body = '{}';
    return 'all-fields';
  }
  const f = rng.pick(fields);
  deleteAt(obj, f.path);
  if (rng.chance(0.3)) {
    setAt(obj, f.path, undefined); // written as null by toJsonText
    d.body = V.toJsonText(obj);
    return `${f.path.join('.')}=undefined→null`;
  }
  d.body = V.toJsonText(obj);
  return `without ${f.path.join('.')}`;
};

export const bodyExtra: Mutator = (_t, seed, d, rng) => {
  const obj = seedBodyObject(seed);
  const key = rng.pick(V.EXTRA_KEYS);
  const [label, value] = rng.chance(0.5) ? (['true', true] as const) : rng.pick(V.ANY_BAD_JSON);
  // __proto__ as an own key needs the JSON text: an object literal would set the prototype.
  const text = V.toJsonText(obj);
  const extra = `${JSON.stringify(key)}:${V.toJsonText(value)}`;
  d.body = text === '{}' ? `{${extra}}` : `${text.slice(0, -1)},${extra}}`;
  if (d.contentType === null) d.contentType = JSON_TYPE;
  return `+${key.length > 20 ? `${key.slice(0, 8)}…(${key.length})` : JSON.stringify(key)}=${label}`;
};

export const bodyWhole: Mutator = (_t, seed, d, rng) => {
  const obj = seedBodyObject(seed);
  const seedText = V.toJsonText(obj);
  const firstKey = Object.keys(obj)[0];
  const choices: [string, () => string | Buffer][] = [
    ['empty', () => ''],
    ['whitespace', () => ' \r\n\t'],
    ['truncated', () => seedText.slice(0, Math.max(1, rng.int(seedText.length)))],
    ['trailing-comma', () => (seedText === '{}' ? '{,}' : `${seedText.slice(0, -1)},}`)],
    ['single-quotes', () => seedText.replace(/"/g, "'")],
    ['unquoted-keys', () => '{a:1}'],
    ['two-documents', () => seedText + seedText],
    ['bom', () => `\ufeff${seedText}`],
    ['trailing-nul', () => `${seedText}\u0000`],
    ['comment', () => `/* x */${seedText}`],
    ['raw-control-char', () => '{"a":"\u0001\u0007"}'],
    ['escaped-lone-surrogate', () => '{"a":"\\ud800"}'],
    ['invalid-utf8', () => Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80]), Buffer.from('"}')])],
    ['utf16le', () => Buffer.from(seedText, 'utf16le')],
    ['top-null', () => 'null'],
    ['top-array', () => '[]'],
    ['top-array-of-seed', () => `[${seedText}]`],
    ['top-string', () => '"x"'],
    ['top-number', () => '1'],
    ['top-1e400', () => '1e400'],
    ['top-true', () => 'true'],
    ['NaN-literal', () => '{"a":NaN}'],
    ['proto', () => '{"__proto__":{"isAdmin":true}}'],
    ['proto-in-seed', () => (seedText === '{}' ? '{"__proto__":{"x":1}}' : `${seedText.slice(0, -1)},"__proto__":{"roles":["MASTER_USER"]}}`)],
    ['constructor-prototype', () => '{"constructor":{"prototype":{"isAdmin":true}}}'],
    ['duplicate-key', () => (firstKey ? `${seedText.slice(0, -1)},${JSON.stringify(firstKey)}:{"$ne":null}}` : '{"a":1,"a":2}')],
    ['nested-arrays-100k-open', () => memo('open100k', () => '['.repeat(100_000))],
    ['nested-arrays-20k', () => memo('arr20k', () => '['.repeat(20_000) + ']'.repeat(20_000))],
    ['nested-objects-20k', () => memo('obj20k', () => '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000))],
    ['keys-20k', () => memo('keys20k', () => `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`)],
    ['over-1MB', () => memo('over1mb', () => `{"x":"${'a'.repeat(1024 * 1024 + 10)}"}`)],
    ['just-under-1MB', () => memo('under1mb', () => `{"x":"${'a'.repeat(1024 * 1024 - 16)}"}`)],
    [
      'huge-string-in-seed',
      () =>
        firstKey
          ? `${seedText.slice(0, -1)},${JSON.stringify(firstKey)}:"${memo('b900k', () => 'b'.repeat(900_000))}"}`
          : `{"a":"${memo('b900k', () => 'b'.repeat(900_000))}"}`,
    ],
    ['binary', () => memo('binary', () => Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 31 + 7) & 0xff)))],
  ];
  const [label, make] = rng.pick(choices);
  d.body = make();
  d.contentType = JSON_TYPE;
  return label;
};

export const contentType: Mutator = (_t, seed, d, rng) => {
  const obj = seedBodyObject(seed);
  const r = rng.next();
  if (r < 0.15) {
    d.body = new URLSearchParams(Object.entries(obj).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
    d.contentType = 'application/x-www-form-urlencoded';
    return 'form-urlencoded-body';
  }
  if (r < 0.3) {
    const { payload, contentType: ct } = buildMultipart(
      Object.entries(obj).map(([name, v]) => ({ name, data: typeof v === 'string' ? v : JSON.stringify(v) })),
    );
    d.body = payload;
    d.contentType = ct;
    return 'multipart-body-to-json-route';
  }
  const [label, ct] = rng.pick(V.BAD_CONTENT_TYPES);
  d.body = V.toJsonText(obj);
  d.contentType = ct;
  return `content-type:${label}`;
};

export const getBody: Mutator = (_t, _seed, d, rng) => {
  const [label, body] = rng.pick<V.Labeled<string>>([
    ['json', '{"page":1}'],
    ['invalid-json', '{'],
    ['huge', `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`],
  ]);
  d.body = body;
  d.contentType = JSON_TYPE;
  return `body-on-${d.method}:${label}`;
};
