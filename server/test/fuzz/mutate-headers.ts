import type { Rng } from './rng.ts';
import { ACTORS, BODY_METHODS, JSON_TYPE, type Draft, type Mutator, type Seed } from './draft.ts';
import * as V from './values.ts';

// Mutators of the headers (sessions, cross-site markers, Host, caching and range headers, upgrade
// requests) and of who sends the request.

const HEADER_TWISTS: ((d: Draft, seed: Seed, rng: Rng) => string)[] = [
  (d, _s, rng) => {
    const [l, v] = rng.pick(V.BAD_COOKIES);
    d.headers.cookie = v;
    return `cookie:${l}`;
  },
  (d, s) => {
    d.headers.cookie = `XG.TOKEN=garbage; ${s.cookies[s.actor] ?? 'XG.TOKEN=x'}`;
    return 'cookie:garbage-then-real';
  },
  (d, s) => {
    d.headers.cookie = `${s.cookies[s.actor] ?? 'XG.TOKEN=x'}; XG.TOKEN=garbage`;
    return 'cookie:real-then-garbage';
  },
  (d, s) => {
    const c = s.cookies[s.actor] ?? 'XG.TOKEN=a.b.c';
    d.headers.cookie = `${c.slice(0, -3)}${c.slice(-3).split('').reverse().join('')}`;
    return 'cookie:bad-signature';
  },
  (d, s) => {
    const c = s.cookies[s.actor];
    const payload = Buffer.from('{"id":"x","tv":0,"exp":1e400,"userRoles":["MASTER_USER"]}').toString('base64url');
    d.headers.cookie = c ? c.replace(/\.[^.]+\./, `.${payload}.`) : `XG.TOKEN=e30.${payload}.x`;
    return 'cookie:forged-payload';
  },
  (d) => {
    d.headers['sec-fetch-site'] = 'cross-site';
    return 'cross-site:sec-fetch-site';
  },
  (d) => {
    d.headers['sec-fetch-site'] = 'same-site';
    return 'cross-site:same-site';
  },
  (d) => {
    d.headers['sec-fetch-site'] = 'SAME-ORIGIN';
    return 'cross-site:upper-case';
  },
  (d) => {
    d.headers['sec-fetch-site'] = '';
    return 'cross-site:empty';
  },
  (d) => {
    d.headers.origin = 'https://evil.example';
    return 'cross-site:origin';
  },
  (d) => {
    d.headers.origin = 'null';
    return 'cross-site:origin-null';
  },
  (d) => {
    d.headers.origin = '%zz::';
    return 'cross-site:origin-garbage';
  },
  (d) => {
    d.headers.referer = 'https://evil.example/page';
    return 'cross-site:referer';
  },
  (d) => {
    d.headers.referer = 'not a url';
    return 'cross-site:referer-garbage';
  },
  (d) => {
    d.headers.origin = 'http://localhost:3000.evil.example';
    return 'cross-site:origin-suffix';
  },
  (d) => {
    d.headers.host = 'evil.example';
    d.headers.origin = 'http://evil.example';
    return 'host:spoofed-with-origin';
  },
  (d) => {
    d.headers.host = '';
    return 'host:empty';
  },
  (d) => {
    d.headers.host = '[::1';
    return 'host:bad-ipv6';
  },
  (d) => {
    d.headers.host = `${'a'.repeat(5000)}.example`;
    return 'host:huge';
  },
  (d) => {
    d.headers.host = 'localhost:99999';
    return 'host:bad-port';
  },
  (d) => {
    d.headers.accept = 'application/xml';
    return 'accept:xml';
  },
  (d) => {
    d.headers.accept = '*/*;q=garbage, text/html;q=-1';
    return 'accept:garbage';
  },
  (d) => {
    d.headers['accept-language'] = `xx-😀,${'a'.repeat(10_000)}`;
    return 'accept-language:huge';
  },
  (d) => {
    d.headers['accept-encoding'] = 'br;q=2, gzip;q=-1, identity;q=0, *;q=0';
    return 'accept-encoding:nothing-acceptable';
  },
  (d) => {
    d.headers['accept-encoding'] = 'x'.repeat(10_000);
    return 'accept-encoding:huge';
  },
  (d, _s, rng) => {
    d.headers.range = rng.pick([
      'bytes=0-0',
      'bytes=-1',
      'bytes=999999999-',
      'bytes=5-1',
      'bytes=0-1,2-3,4-5,6-7',
      'bytes=abc',
      'items=0-1',
      'bytes=-0',
      `bytes=0-${'9'.repeat(40)}`,
      'bytes=' + '0-1,'.repeat(2000),
    ]);
    return `range:${d.headers.range.slice(0, 24)}`;
  },
  (d, _s, rng) => {
    d.headers['if-none-match'] = rng.pick(['*', '"x"', 'W/"', 'x'.repeat(10_000)]);
    return 'if-none-match';
  },
  (d, _s, rng) => {
    d.headers['if-modified-since'] = rng.pick(['garbage', '0', 'Thu, 01 Jan 1970 00:00:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', '-1']);
    return `if-modified-since:${d.headers['if-modified-since']}`;
  },
  (d, _s, rng) => {
    d.headers['x-forwarded-for'] = rng.pick(['garbage', '1.1.1.1, 2.2.2.2', '::ffff:1.2.3.4', `${'1.'.repeat(5000)}1`]);
    return 'x-forwarded-for';
  },
  (d) => {
    d.headers['user-agent'] = `UA ${'x'.repeat(50_000)} \u202e`;
    return 'user-agent:huge';
  },
  (d) => {
    d.headers['x-http-method-override'] = 'DELETE';
    return 'method-override';
  },
  (d) => {
    d.headers.authorization = 'Bearer garbage';
    return 'authorization:bearer';
  },
  (d) => {
    d.headers.upgrade = 'websocket';
    d.headers.connection = 'Upgrade';
    d.headers['sec-websocket-version'] = '13';
    d.headers['sec-websocket-key'] = 'garbage';
    return 'upgrade:websocket-bad-key';
  },
  (d) => {
    d.headers.upgrade = 'websocket';
    d.headers.connection = 'Upgrade';
    d.headers['sec-websocket-version'] = '99';
    return 'upgrade:websocket-bad-version';
  },
  (d) => {
    d.headers.upgrade = 'h2c';
    d.headers.connection = 'Upgrade, HTTP2-Settings';
    return 'upgrade:h2c';
  },
  (d) => {
    d.headers['content-encoding'] = 'gzip';
    if (d.body === null && BODY_METHODS.has(d.method)) {
      d.body = '{}';
      d.contentType = JSON_TYPE;
    }
    return 'content-encoding:gzip-lie';
  },
  (d) => {
    d.headers.expect = '100-continue';
    return 'expect:100-continue';
  },
];

export const header: Mutator = (_t, seed, d, rng) => rng.pick(HEADER_TWISTS)(d, seed, rng);

export const actor: Mutator = (_t, _seed, d, rng) => {
  d.actor = rng.pick(ACTORS.filter((a) => a !== d.actor));
  return `as ${d.actor}`;
};
