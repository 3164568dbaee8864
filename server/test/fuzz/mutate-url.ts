import type { Rng } from './rng.ts';
import { boundaryValues, sampleValid } from './schema-values.ts';
import { enc, memo, type Mutator } from './draft.ts';
import * as V from './values.ts';

// Mutators of the URL: query fields (special numbers, repeats, odd keys), path parameters
// (traversal, NULs, long ids), and the paths of the wildcard routes (pages, uploaded files).

export const queryField: Mutator = (t, seed, d, rng) => {
  const schema = t.schema!.querystring!;
  const props = Object.entries(schema.properties ?? {});
  const [key, s] = rng.pick(props);
  const without = d.query.filter(([k]) => k !== key);
  const seedValue = seed.query[key];
  const r = rng.next();
  if (r < 0.5) {
    const [label, v] = rng.pick(V.QUERY_VALUES);
    d.query = [...without, [key, v]];
    return `${key}=${label}`;
  }
  if (r < 0.7) {
    const options = boundaryValues(s, seedValue).filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
    if (options.length) {
      const [label, v] = rng.pick(options);
      d.query = [...without, [key, enc(String(v))]];
      return `${key}=boundary:${label}`;
    }
  }
  if (r < 0.82) {
    const valid = enc(String(seedValue ?? sampleValid(s)));
    const [label, bad] = rng.pick(V.QUERY_VALUES);
    const pairs: [string, string][][] = [
      [
        [key, valid],
        [key, valid],
      ],
      [
        [key, valid],
        [key, bad],
      ],
      [
        [key, bad],
        [key, valid],
      ],
      [
        [key, valid],
        [key, valid],
        [key, valid],
      ],
    ];
    const which = rng.int(pairs.length);
    d.query = [...without, ...pairs[which]];
    return `${key} repeated #${which} (${label})`;
  }
  if (r < 0.9) {
    const variants: [string, [string, string | null][]][] = [
      ['no-equals', [[key, null]]],
      ['empty', [[key, '']]],
      ['brackets', [[`${key}[]`, '1']]],
      ['indexed', [[`${key}[0]`, '1']]],
      ['nested', [[`${key}[a][b]`, '1']]],
      ['dotted', [[`${key}.x`, '1']]],
      ['upper-key', [[key.toUpperCase(), '1']]],
      ['encoded-key', [[encodeURIComponent(key).replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`), '2']]],
      ['nul-key', [[`${key}%00`, '1']]],
    ];
    const [label, extra] = rng.pick(variants);
    d.query = [...without, ...extra];
    return `${key}:${label}`;
  }
  d.query = without;
  return `without ${key}${schema.required?.includes(key) ? ' (required)' : ''}`;
};

export const queryExtra: Mutator = (_t, _seed, d, rng) => {
  const r = rng.next();
  if (r < 0.5) {
    const key = rng.pick([
      'x',
      'page',
      'pageSize',
      'q',
      'id',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      '',
      'a%00b',
      '%zz',
      'ñ',
      'a'.repeat(500),
    ]);
    const [label, v] = rng.pick(V.QUERY_VALUES);
    if (d.query.some(([k]) => k === key)) d.query = d.query.filter(([k]) => k !== key);
    d.query = [...d.query, [key, v]];
    return `+${key.length > 20 ? `${key.slice(0, 6)}…` : key}=${label}`;
  }
  const raws: V.Labeled<string>[] = memo('raw-queries', () => [
    ['ampersands', '&&&'],
    ['equals', '='],
    ['double-equals', '=='],
    ['lone-percent', '%'],
    ['bad-percent-key', '%zz=1'],
    ['question-marks', '??a=1'],
    ['semicolons', 'a=1;b=2'],
    ['1000-keys', Array.from({ length: 1000 }, (_, i) => `k${i}=${i}`).join('&')],
    ['1000-repeats', Array(1000).fill('page=1').join('&')],
    ['huge', `x=${'y'.repeat(100_000)}`],
    ['proto-path', '__proto__[polluted]=1&constructor[prototype][polluted]=1'],
    ['plus-and-space', 'a=+%20+'],
    ['hash-in-query', 'a=1#frag'],
    ['unicode-key', '😀=1'],
    ['nul', '%00=%00'],
  ]);
  const [label, raw] = rng.pick(raws);
  const base = d.query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
  d.rawQuery = base ? `${base}&${raw}` : raw;
  return `raw:${label}`;
};

export const param: Mutator = (t, seed, d, rng) => {
  const name = rng.pick(t.paramNames);
  const s = t.schema?.params?.properties?.[name];
  const seedValue = seed.params[name] ?? '';
  const r = rng.next();
  let label: string;
  let value: string;
  if (r < 0.7) [label, value] = rng.pick(V.PARAM_VALUES);
  else {
    const options: V.Labeled<string>[] = [
      ['seed-upper', encodeURIComponent(seedValue.toUpperCase())],
      ['seed+space', `${encodeURIComponent(seedValue)}%20`],
      ['seed+nul', `${encodeURIComponent(seedValue)}%00`],
      ['seed+traversal', `${encodeURIComponent(seedValue)}%2f..%2f..`],
      ['seed+dot', `${encodeURIComponent(seedValue)}.`],
      ['seed-doubled', encodeURIComponent(seedValue + seedValue)],
      ['seed-fullwidth', encodeURIComponent(seedValue.replace(/[a-z0-9]/gi, (c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)))],
      ['unknown-id', 'zzzzzzzzzzzzzzzzzzzz'],
    ];
    if (s?.maxLength !== undefined)
      options.push(['len=max+1', 'a'.repeat(s.maxLength + 1)], ['len=max', 'a'.repeat(s.maxLength)], ['astral=max', '%F0%9F%98%80'.repeat(s.maxLength)]);
    [label, value] = rng.pick(options);
  }
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(seed.params)) params[k] = encodeURIComponent(v);
  params[name] = value;
  d.path = t.pattern.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => params[n] ?? '');
  return `:${name}=${label}`;
};

const PAGE_TWISTS: ((p: string, rng: Rng) => V.Labeled<string>)[] = [
  (p, rng) => {
    const [l, v] = rng.pick(V.PARAM_VALUES);
    return [`append:${l}`, `${p.replace(/\/$/, '')}/${v}`];
  },
  (p, rng) => {
    const [l, v] = rng.pick(V.PARAM_VALUES);
    return [`replace-last:${l}`, p.replace(/[^/]*$/, v)];
  },
  () => ['traversal', '/..%2f..%2f..%2fetc%2fpasswd'],
  () => ['raw-traversal', '/listings/../../../etc/passwd'],
  (p) => ['double-slash', `//${p.replace(/^\//, '')}`],
  (p) => ['dot-segment', `/.${p}`],
  (p) => ['trailing-slashes', `${p}///`],
  () => ['long-segment', `/${'a'.repeat(10_000)}`],
  () => ['many-segments', '/a'.repeat(2000)],
  () => ['raw-unicode', '/ñandú/😀/\u202e'],
  () => ['bad-percent', '/%zz/%'],
  (p) => ['encoded-nul', `${p}%00`],
  () => ['encoded-surrogate', '/%ED%A0%80'],
  () => ['double-encoded', '/%252e%252e%252f'],
  () => ['backslashes', '/\\..\\..\\windows\\win.ini'],
  (p) => ['upper', p.toUpperCase()],
  () => ['unknown-locale', '/xx/faq'],
  () => ['locale-only', '/es/'],
  (_p, rng) => ['listing-junk', `/listings/us/${rng.pick(V.PARAM_VALUES)[1]}/${rng.pick(V.PARAM_VALUES)[1]}/${rng.pick(V.PARAM_VALUES)[1]}`],
  (_p, rng) => ['state-junk', `/listings/us/${rng.pick(V.PARAM_VALUES)[1]}`],
  () => ['ad-long-id', `/ad/${'a'.repeat(41)}`],
  () => ['ad-bad-id', '/ad/A-B'],
  () => ['api-unknown', '/api/no-such-route/%zz'],
  () => ['api-bare', '/api'],
  () => ['assets', '/assets/../../etc/passwd'],
  () => ['uploads-bare', '/uploads'],
  (p) => ['semicolon', `${p};jsessionid=1`],
  (p) => ['encoded-slash', p.replace(/\//g, '%2F')],
  (p) => ['index-html', `${p}/index.html`],
];

const UPLOAD_TWISTS: ((rel: string) => V.Labeled<string>)[] = [
  () => ['traversal', '../../../../etc/passwd'],
  () => ['encoded-traversal', '..%2f..%2f..%2fetc%2fpasswd'],
  (rel) => ['inner-traversal', `${rel.split('/')[0]}/../../../etc/passwd`],
  (rel) => ['encoded-dots', `${rel.split('/')[0]}/%2e%2e/%2e%2e/x.webp`],
  (rel) => ['tmp-file', `${rel}.tmp`],
  (rel) => ['upper-ext', rel.replace(/\.\w+$/, (e) => e.toUpperCase())],
  (rel) => ['folder-only', `${rel.split('/')[0]}/`],
  (rel) => ['folder-no-slash', rel.split('/')[0]],
  () => ['empty', ''],
  () => ['absolute', '/etc/passwd'],
  (rel) => ['nul-ext', `${rel}%00.png`],
  () => ['len-301', `${'a'.repeat(296)}.webp`],
  () => ['len-10000', `${'a'.repeat(10_000)}.webp`],
  () => ['deep', `${'a/'.repeat(100)}x.webp`],
  (rel) => ['missing-file', `${rel.split('/')[0]}/nonexistent.webp`],
  (rel) => ['trailing-slash', `${rel}/`],
  (rel) => ['backslashes', rel.replace(/\//g, '\\')],
  (rel) => ['encoded-slash', rel.replace(/\//g, '%2F')],
  (rel) => ['double-slash', rel.replace(/\//g, '//')],
  () => ['unicode', 'ads/ñandú😀.webp'],
  () => ['bad-percent', 'ads/%zz.webp'],
  (rel) => ['dot-segment', `./${rel}`],
  () => ['dotfile', 'ads/.htaccess'],
  (rel) => ['svg-ext', rel.replace(/\.\w+$/, '.svg')],
];

export const pathMutator: Mutator = (t, seed, d, rng) => {
  if (t.kind === 'uploads') {
    const rel = seed.params['*'] ?? '';
    const [label, v] = rng.pick(UPLOAD_TWISTS)(rel);
    d.path = `/uploads/${v}`;
    return label;
  }
  const base = seed.paths.length ? rng.pick(seed.paths) : '/';
  const [label, v] = rng.pick(PAGE_TWISTS)(base, rng);
  d.path = v.startsWith('/') ? v : `/${v}`;
  return label;
};
