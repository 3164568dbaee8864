// The bad values the fuzzer draws from. Each pool is a list of [label, value] so a failure names
// the value that caused it without printing 100 KB of it.

/** A JSON token written as is (1e400, 9007199254740993, -0): JSON.stringify cannot produce these. */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** JSON text of a value that may hold RawJson tokens. Lone surrogates are escaped (\ud800) as JSON.stringify does. */
export function toJsonText(v: unknown): string {
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) return `[${v.map(toJsonText).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJsonText(x)}`)
      .join(',')}}`;
  }
  if (v === undefined) return 'null';
  return JSON.stringify(v);
}

export type Labeled<T> = readonly [label: string, value: T];

const HUGE = 'A'.repeat(100_000);
const deep = (n: number): unknown => new RawJson('['.repeat(n) + ']'.repeat(n));
const deepObject = (n: number): unknown => new RawJson('{"a":'.repeat(n) + '1' + '}'.repeat(n));

/** Strings that are wrong in content, not in type. */
export const BAD_STRINGS: Labeled<string>[] = [
  ['empty', ''],
  ['space', ' '],
  ['whitespace', ' \t\r\n '],
  ['nul', '\u0000'],
  ['embedded-nul', 'ab\u0000cd'],
  ['lone-high-surrogate', '\ud800'],
  ['lone-low-surrogate', 'x\udfffx'],
  ['rtl-override', '\u202eevil\u202c.exe'],
  ['zero-width', '\u200b\u200c\u200d\ufeff'],
  ['bom', '\ufeffvalue'],
  ['combining', 'e\u0301\u0301\u0301\u0301'],
  ['emoji-zwj', '👩‍👩‍👧‍👦'.repeat(20)],
  ['astral-30', '😀'.repeat(30)],
  ['cjk', '東京都渋谷区'],
  ['arabic', 'مرحبا بالعالم'],
  ['turkish-i', 'İıI'],
  ['fullwidth-digits', '１２３'],
  ['arabic-digits', '٣٤'],
  ['html', '<script>alert(1)</script>'],
  ['sql', "' OR 1=1; DROP TABLE users; --"],
  ['like-wildcards', '%_%\\'],
  ['fts-syntax', 'NEAR(a b) OR "x" * ^ :col AND NOT'],
  ['fts-quote', '"unterminated'],
  ['template', '${7*7}{{7*7}}'],
  ['traversal', '../../../../etc/passwd'],
  ['backslashes', '\\\\server\\share'],
  ['url', 'javascript:alert(1)'],
  ['crlf-injection', 'a\r\nSet-Cookie: x=1'],
  ['control-chars', '\u0001\u0002\u0007\u001b[31m'],
  ['word-null', 'null'],
  ['word-undefined', 'undefined'],
  ['word-true', 'true'],
  ['num-text-infinity', 'Infinity'],
  ['num-text-1e400', '1e400'],
  ['num-text-nan', 'NaN'],
  ['num-text-neg', '-1'],
  ['proto', '__proto__'],
  ['len-31', 'x'.repeat(31)],
  ['len-41', 'x'.repeat(41)],
  ['len-65', 'x'.repeat(65)],
  ['len-101', 'x'.repeat(101)],
  ['len-121', 'x'.repeat(121)],
  ['len-201', 'x'.repeat(201)],
  ['len-255', 'x'.repeat(255)],
  ['len-2001', 'x'.repeat(2001)],
  ['len-6001', 'x'.repeat(6001)],
  ['huge-100k', HUGE],
  ['huge-unicode-100k', 'é'.repeat(50_000)],
  ['huge-astral', '😀'.repeat(25_000)],
];

/** Numbers JSON can carry, and a few it cannot (sent raw). */
export const BAD_NUMBERS: Labeled<unknown>[] = [
  ['zero', 0],
  ['neg-zero', new RawJson('-0')],
  ['neg-one', -1],
  ['half', 1.5],
  ['tiny', 1e-9],
  ['2^31', 2147483648],
  ['2^32', 4294967296],
  ['2^53+1', new RawJson('9007199254740993')],
  ['-2^53-1', new RawJson('-9007199254740993')],
  ['1e20', 1e20],
  ['1e308', 1e308],
  ['-1e308', -1e308],
  ['1e400', new RawJson('1e400')],
  ['-1e400', new RawJson('-1e400')],
  ['1e-400', new RawJson('1e-400')],
  ['30-digit', new RawJson('123456789012345678901234567890')],
  ['exp-int', new RawJson('1E2')],
  ['max-safe', Number.MAX_SAFE_INTEGER],
  ['min-safe', Number.MIN_SAFE_INTEGER],
];

/** Values JSON cannot hold at all: the body stops being JSON. */
export const NOT_JSON_NUMBERS: Labeled<unknown>[] = [
  ['Infinity', new RawJson('Infinity')],
  ['-Infinity', new RawJson('-Infinity')],
  ['NaN', new RawJson('NaN')],
  ['hex', new RawJson('0x10')],
  ['leading-plus', new RawJson('+1')],
  ['leading-zero', new RawJson('01')],
];

export const BAD_SHAPES: Labeled<unknown>[] = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['empty-array', []],
  ['array-of-null', [null]],
  ['array-of-numbers', [1, 2, 3]],
  ['array-of-strings', ['a', 'b']],
  ['empty-object', {}],
  ['object', { a: 1 }],
  ['proto-object', new RawJson('{"__proto__":{"polluted":true}}')],
  ['constructor-object', new RawJson('{"constructor":{"prototype":{"polluted":true}}}')],
  ['nested-10', deep(10)],
  ['nested-2000', deep(2000)],
  ['nested-object-2000', deepObject(2000)],
  ['array-10k', new RawJson(`[${Array(10_000).fill('1').join(',')}]`)],
  ['array-of-huge', ['x'.repeat(50_000), 'y'.repeat(50_000)]],
];

/** Every kind of wrong value for a JSON field. */
export const ANY_BAD_JSON: Labeled<unknown>[] = [
  ...BAD_STRINGS.map(([l, v]) => [`string:${l}`, v] as const),
  ...BAD_NUMBERS.map(([l, v]) => [`number:${l}`, v] as const),
  ...BAD_SHAPES.map(([l, v]) => [`shape:${l}`, v] as const),
];

export const EXTRA_KEYS: string[] = [
  'role',
  'roles',
  'isAdmin',
  'status',
  'ownerId',
  'userId',
  'id',
  'balanceCents',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'a'.repeat(1000),
  '👾',
  'x\u0000y',
  '$where',
  'page',
];

/** Query-string values, already in URL form (percent-encoding is part of the test). */
export const QUERY_VALUES: Labeled<string>[] = [
  ['Infinity', 'Infinity'],
  ['-Infinity', '-Infinity'],
  ['NaN', 'NaN'],
  ['1e400', '1e400'],
  ['-1e400', '-1e400'],
  ['1e9', '1e9'],
  ['1e20', '1e20'],
  ['-0', '-0'],
  ['0', '0'],
  ['-1', '-1'],
  ['1.5', '1.5'],
  ['1.0', '1.0'],
  ['2^53+1', '9007199254740993'],
  ['2^63', '9223372036854775808'],
  ['30-digit', '123456789012345678901234567890'],
  ['hex', '0x10'],
  ['octal', '0o7'],
  ['binary', '0b1'],
  ['underscore', '1_000'],
  ['plus-sign', '%2B1'],
  ['space-padded', '%201%20'],
  ['plus-space', '+1+'],
  ['fullwidth', '%EF%BC%91'],
  ['arabic-digit', '%D9%A3'],
  ['empty', ''],
  ['true', 'true'],
  ['TRUE', 'TRUE'],
  ['yes', 'yes'],
  ['one', '1'],
  ['null', 'null'],
  ['undefined', 'undefined'],
  ['nul', '%00'],
  ['embedded-nul', 'a%00b'],
  ['bad-percent', '%zz'],
  ['lone-percent', '%'],
  ['truncated-percent', '%E2%82'],
  ['overlong-utf8', '%C0%AF'],
  ['encoded-surrogate', '%ED%A0%80'],
  ['invalid-utf8', '%FF%FE'],
  ['emoji', '%F0%9F%92%A9'],
  ['rtl', '%E2%80%AE'],
  ['raw-unicode', 'ñandú'],
  ['html', '%3Cscript%3E'],
  ['sql', "'%20OR%201=1--"],
  ['fts', '%22NEAR(a%20b)%22%20*'],
  ['like', '%25_%25'],
  ['traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['encoded-amp', 'a%26page%3D2'],
  ['encoded-eq', '%3D%3D'],
  ['brackets', '%5B%5D'],
  ['len-101', 'x'.repeat(101)],
  ['len-401', 'x'.repeat(401)],
  ['huge-100k', 'q'.repeat(100_000)],
  ['huge-encoded', '%F0%9F%98%80'.repeat(5000)],
];

/** Path parameter values, in URL form. */
export const PARAM_VALUES: Labeled<string>[] = [
  ['traversal', '..%2f..%2f..%2fetc%2fpasswd'],
  ['traversal-upper', '..%2F..%2Fetc%2Fpasswd'],
  ['dots', '..'],
  ['dot', '.'],
  ['encoded-dots', '%2e%2e'],
  ['overlong-dots', '%c0%ae%c0%ae'],
  ['backslash', '..%5c..%5cwindows'],
  ['nul', '%00'],
  ['embedded-nul', 'abc%00def'],
  ['bad-percent', '%zz'],
  ['lone-percent', '%'],
  ['encoded-surrogate', '%ED%A0%80'],
  ['invalid-utf8', '%FF'],
  ['emoji', '%F0%9F%92%A9'],
  ['raw-unicode', 'ñandú'],
  ['space', '%20'],
  ['plus', '+'],
  ['semicolon', 'a;b=c'],
  ['encoded-slash', 'a%2Fb'],
  ['encoded-question', 'a%3Fb'],
  ['encoded-hash', 'a%23b'],
  ['quote', "'%22"],
  ['html', '%3Cscript%3E'],
  ['null', 'null'],
  ['undefined', 'undefined'],
  ['zero', '0'],
  ['neg-one', '-1'],
  ['neg-zero', '-0'],
  ['half', '1.5'],
  ['Infinity', 'Infinity'],
  ['-Infinity', '-Infinity'],
  ['NaN', 'NaN'],
  ['1e400', '1e400'],
  ['2^53+1', '9007199254740993'],
  ['2^31', '2147483648'],
  ['hex', '0x1'],
  ['len-40', 'a'.repeat(40)],
  ['len-41', 'a'.repeat(41)],
  ['len-65', 'a'.repeat(65)],
  ['len-121', 'a'.repeat(121)],
  ['len-1000', 'a'.repeat(1000)],
  ['len-10000', 'a'.repeat(10_000)],
  ['len-100-encoded', '%C3%A9'.repeat(100)],
];

/** Cookie headers that are not a session. */
export const BAD_COOKIES: Labeled<string>[] = [
  ['garbage-token', 'XG.TOKEN=garbage'],
  ['empty-token', 'XG.TOKEN='],
  ['three-dots', 'XG.TOKEN=a.b.c'],
  [
    'alg-none',
    `XG.TOKEN=${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"id":"x","tv":0,"exp":9999999999}').toString('base64url')}.`,
  ],
  ['bad-base64', 'XG.TOKEN=%%%.%%%.%%%'],
  ['bad-percent', 'XG.TOKEN=%zz'],
  ['huge-token', `XG.TOKEN=${'a'.repeat(8000)}`],
  ['unicode-token', 'XG.TOKEN=ñ😀'],
  ['only-separators', ';;;=;=;'],
  ['no-equals', 'XG.TOKEN'],
  ['many-cookies', Array.from({ length: 300 }, (_, i) => `c${i}=${i}`).join('; ')],
  ['proto-cookie', '__proto__=x; constructor=y'],
];

export const BAD_CONTENT_TYPES: Labeled<string | null>[] = [
  ['none', null],
  ['text-plain', 'text/plain'],
  ['form-urlencoded', 'application/x-www-form-urlencoded'],
  ['multipart-no-boundary', 'multipart/form-data'],
  ['multipart', 'multipart/form-data; boundary=xyz'],
  ['xml', 'application/xml'],
  ['octet-stream', 'application/octet-stream'],
  ['json-utf16', 'application/json; charset=utf-16'],
  ['json-latin1', 'application/json; charset=latin1'],
  ['json-upper', 'APPLICATION/JSON'],
  ['json-patch', 'application/merge-patch+json'],
  ['json-params', 'application/json; foo=bar; charset=utf-8'],
  ['empty', ''],
  ['garbage', ';;;/'],
  ['unicode', 'application/jsön'],
  ['csp-report', 'application/csp-report'],
];
