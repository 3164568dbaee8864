import type { InjectOptions } from 'fastify';
import type { Access } from '../../core/access.ts';
import type { Part } from './multipart.ts';
import type { Rng } from './rng.ts';
import type { RouteSchema } from './schema-map.ts';
import * as V from './values.ts';

// The vocabulary of input generation: the route (Target), its working request (Seed), the request
// being built (Draft), and the mutators that break one thing of it.

/** A value made afresh for every input (a new e-mail address for each registration). */
export class Fresh {
  readonly make: () => unknown;
  constructor(make: () => unknown) {
    this.make = make;
  }
}

export interface Target {
  route: string;
  method: string;
  pattern: string;
  schema: RouteSchema | null;
  access: Access;
  /** How the route is reached: JSON API, pages (GET /*), the uploads files, static files, the socket. */
  kind: 'api' | 'page' | 'uploads' | 'static' | 'ws';
  /** Multipart routes: which form they take. */
  form: 'ad' | 'avatar' | null;
  paramNames: string[];
}

/** A route's working request, from real rows of this run (re-read after any change to the database). */
export interface Seed {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | null;
  form: Part[] | null;
  /** Wildcard routes: working paths (URL form). */
  paths: string[];
  /** Headers the working request needs (the socket's Origin). */
  headers: Record<string, string>;
  actor: string;
  cookies: Record<string, string | null>;
  images: { jpeg: Buffer; png: Buffer; webp: Buffer; gif: Buffer };
}

export interface FuzzInput {
  family: string;
  detail: string;
  actor: string;
  opts: InjectOptions;
}

export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const JSON_TYPE = 'application/json';
export const ACTORS = ['guest', 'provider', 'admin', 'master'];

/** A request being built: the seed's parts, which one mutator then breaks. */
export interface Draft {
  method: string;
  path: string;
  query: [string, string | null][];
  rawQuery: string | null;
  body: string | Buffer | null;
  contentType: string | null;
  headers: Record<string, string>;
  actor: string;
}

/** The seed with its Fresh values made: plain JSON values only. */
export function materialize(v: unknown): unknown {
  if (v instanceof Fresh) return v.make();
  if (Array.isArray(v)) return v.map(materialize);
  if (v && typeof v === 'object' && !(v instanceof V.RawJson)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, materialize(x)]));
  return v;
}

export const enc = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));

/** Big inputs are built once per process, not once per request. */
const memos = new Map<string, unknown>();
export function memo<T>(key: string, make: () => T): T {
  if (!memos.has(key)) memos.set(key, make());
  return memos.get(key) as T;
}

export function seedBodyObject(seed: Seed): Record<string, unknown> {
  return (materialize(seed.body ?? {}) as Record<string, unknown>) ?? {};
}

/** Breaks one thing of the draft; answers a label for the report. */
export type Mutator = (t: Target, seed: Seed, d: Draft, rng: Rng) => string;
