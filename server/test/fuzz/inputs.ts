import type { InjectOptions } from 'fastify';
import type { Rng } from './rng.ts';
import { buildMultipart } from './multipart.ts';
import { BODY_METHODS, JSON_TYPE, enc, materialize, type Draft, type FuzzInput, type Mutator, type Seed, type Target } from './draft.ts';
import { bodyBoundary, bodyExtra, bodyField, bodyMissing, bodyWhole, contentType, getBody } from './mutate-body.ts';
import { param, pathMutator, queryExtra, queryField } from './mutate-url.ts';
import { actor, header } from './mutate-headers.ts';
import { multipartMutator } from './mutate-multipart.ts';
import * as V from './values.ts';

export { Fresh, type FuzzInput, type Seed, type Target } from './draft.ts';
export { sampleValid } from './schema-values.ts';

// Input generation. Most inputs are near-valid: the route's working request (the seed, built from
// its schema and from real rows) with one thing broken, so that they get past routing, sessions
// and 404s and reach validation and the services. The rest break the request as a whole.

function seedDraft(t: Target, seed: Seed, rng: Rng): Draft {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(seed.params)) params[k] = k === '*' ? v.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(v);
  let path = t.pattern.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => params[n] ?? '');
  if (t.pattern.endsWith('*')) path = seed.paths.length ? rng.pick(seed.paths) : path.replace(/\*$/, params['*'] ?? '');
  const query: [string, string | null][] = Object.entries(seed.query).map(([k, v]) => [k, enc(v)]);
  const body = seed.body && BODY_METHODS.has(t.method) ? V.toJsonText(materialize(seed.body)) : null;
  return {
    method: t.method,
    path,
    query,
    rawQuery: null,
    body,
    contentType: body === null ? null : JSON_TYPE,
    headers: { ...seed.headers },
    actor: seed.actor,
  };
}

function toInject(d: Draft, seed: Seed): InjectOptions {
  const qs = d.rawQuery ?? d.query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
  const headers: Record<string, string> = { ...d.headers };
  const cookie = seed.cookies[d.actor];
  if (cookie && headers.cookie === undefined) headers.cookie = cookie;
  if (d.contentType !== null && headers['content-type'] === undefined) headers['content-type'] = d.contentType;
  const opts: InjectOptions = { method: d.method, url: qs ? `${d.path}?${qs}` : d.path, headers };
  if (d.body !== null) opts.payload = d.body;
  return opts;
}

const MUTATORS: Record<string, Mutator> = {
  'body.field': bodyField,
  'body.boundary': bodyBoundary,
  'body.missing': bodyMissing,
  'body.extra': bodyExtra,
  'body.whole': bodyWhole,
  'content-type': contentType,
  'query.field': queryField,
  'query.extra': queryExtra,
  param,
  path: pathMutator,
  header,
  actor,
  'get-body': getBody,
  multipart: multipartMutator,
};

function families(t: Target): (readonly [number, string])[] {
  const bodyProps = Object.keys(t.schema?.body?.properties ?? {}).length > 0;
  const queryProps = Object.keys(t.schema?.querystring?.properties ?? {}).length > 0;
  const takesBody = BODY_METHODS.has(t.method) && !t.form;
  const wildcard = t.pattern.endsWith('*');
  const params = t.paramNames.length > 0 && !wildcard;
  const bare = !bodyProps && !queryProps && !params && !t.form && !wildcard;
  return [
    [1, 'seed'],
    [bodyProps ? 30 : 0, 'body.field'],
    [bodyProps ? 10 : 0, 'body.boundary'],
    [bodyProps ? 5 : 0, 'body.missing'],
    [bodyProps || takesBody ? 5 : 0, 'body.extra'],
    [takesBody ? 12 : 0, 'body.whole'],
    [takesBody ? 8 : 0, 'content-type'],
    [queryProps ? 25 : 0, 'query.field'],
    [bare ? 25 : t.form ? 2 : 5, 'query.extra'],
    [params ? 25 : 0, 'param'],
    [wildcard ? 45 : 0, 'path'],
    [t.kind === 'static' || t.kind === 'ws' || bare ? 30 : t.form ? 3 : 8, 'header'],
    [t.form ? 1.5 : 3, 'actor'],
    [takesBody || t.form ? 0 : 2, 'get-body'],
    [t.form ? 60 : 0, 'multipart'],
  ];
}

/** One input: the seed (every 40th, so the working path keeps running) or the seed with one thing broken. */
export function generate(t: Target, seed: Seed, rng: Rng, i: number): FuzzInput {
  const family = i % 40 === 0 ? 'seed' : rng.weighted(families(t));
  // Upload routes: most inputs that break something other than the file carry a file that is not
  // an image, refused in microseconds; decoding a real picture costs ~15 ms, and a run that
  // accepted a third of its inputs spent its time in libvips rather than in the parsers.
  let suffix = '';
  if (t.form && seed.form && family !== 'seed' && rng.chance(t.form === 'avatar' ? 0.85 : 0.7)) {
    seed = { ...seed, form: seed.form.map((p) => (p.filename !== undefined ? { ...p, data: NOT_AN_IMAGE } : p)) };
    suffix = ' +file-not-an-image';
  }
  const d = seedDraft(t, seed, rng);
  if (t.form && seed.form) {
    const built = buildMultipart(seed.form);
    d.body = built.payload;
    d.contentType = built.contentType;
  }
  const detail = family === 'seed' ? '' : MUTATORS[family](t, seed, d, rng);
  return { family, detail: detail && !detail.startsWith('file:') ? detail + suffix : detail, actor: d.actor, opts: toInject(d, seed) };
}

const NOT_AN_IMAGE = Buffer.from('plain text, not a picture');
