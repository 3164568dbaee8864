// The authorization matrix's vocabulary. Each module lists every route it registers in
// server/test/matrix/<module>.ts (collected by server/test/matrix/index.ts);
// server/test/authorization-matrix.test.ts enumerates every registered route, fails when one has
// no row, and runs each row for each actor against the real objects of a fixture (fixture.ts).
// A row that acts on an object names the policy actions it exercises (policies.ts): the HTTP
// answers must follow what the policies say.

import type { ActionOf, ObjectOf, PolicyModule, PolicyObjects } from './policies.ts';

/** Everyone the matrix speaks as, in the order they act (allowed actors first: an answer one of
 *  them was allowed to see must not be served to the actors after them from a cache). */
export const ACTORS = ['provider', 'admin', 'master', 'otherProvider', 'pendingProvider', 'suspendedProvider', 'guest'] as const;
export type Actor = (typeof ACTORS)[number];

/** Actors without a live session: a guest, and a suspended user (their session is dead at once). */
export const SESSIONLESS: ReadonlySet<Actor> = new Set(['guest', 'suspendedProvider']);

/** Users that own objects in the fixture. provider and otherProvider own one of each kind. */
export type Owner = 'provider' | 'otherProvider' | 'pendingProvider' | 'suspendedProvider';
export type ObjectKind = 'cartAd' | 'reviewAd' | 'liveAd' | 'usdWallet' | 'promoWallet' | 'report' | 'personalCode' | 'invoice';
/**
 * An owned object of the fixture, e.g. 'provider.cartAd'; its id (a personal promo code: the code).
 * A report is "provider's" when it is about provider's live ad (reports have no owner: staff act on them).
 * An invoice is a sandbox Bitcoin invoice (its id is BTCPay's, the sandbox's here).
 * pendingProvider owns a usdWallet, a cartAd and a liveAd (approved, hidden while its owner is
 * pending); suspendedProvider a usdWallet and a liveAd (posted before the suspension, now hidden).
 */
export type ObjectRef = `${Owner}.${ObjectKind}`;

/**
 * 'allow':  the actor gets past authorization: any status but 401 and 403, and not 404 either
 *           (every row names real objects, so a 404 means the actor was refused).
 * 'deny':   401 for an actor without a session; 403 for a signed-in actor, or 403/404 (the row's
 *           notYours) when the row acts on an object the actor does not own. Nothing in the
 *           database, the mail sent or the stored files changes.
 * 'hidden': 404: the object's existence is not confirmed (a public read of a non-public ad).
 *           Nothing in the database changes.
 */
export type Outcome = 'allow' | 'deny' | 'hidden';

/** Who may: a fixed outcome per actor, or one worked out from who owns the row's target. */
export type Rule = Readonly<Record<Actor, Outcome>> | ((actor: Actor, owner: Owner | null) => Outcome);

export interface RequestSpec {
  /** The concrete URL; by default the route's pattern with its first :param set to the target's id. */
  url?: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/** What a row's request is built from: the ids of the fixture's real objects, as they are now. */
export interface RowContext {
  /** The id of an owned object. In a mirrored run provider and otherProvider trade places. */
  id(ref: ObjectRef): string;
  /**
   * The acting user's own funded wallet (a guest's or a suspended user's: provider's), so that a
   * payment on someone else's ad is refused for the ad alone, never for want of a wallet or money.
   */
  myWallet(kind: 'usdWallet' | 'promoWallet'): string;
  /** The acting user (null for a guest). */
  me: { actor: Actor; id: string | null; email: string | null; password: string | null };
  /** Objects that belong to nobody in particular (staff rows act on them). */
  world: {
    applicantId: string;
    promoCode: string;
    staffPromoCodeId: string;
    bumpPriceId: string;
    cronRunId: number;
    /** A recorded health check result (staff may delete it). */
    healthCheckId: number;
    quietCity: { stateId: string; cityId: string };
    ny: { stateId: string; cityId: string; stateSlug: string; citySlug: string };
    otherNyCity: { stateId: string; cityId: string };
    loginEmail: string;
    loginPassword: string;
    /** A stored photo of an ad, as its public URL. */
    photoUrl(ref: ObjectRef): string;
  };
  /** The fixture's objects as the policies see them, now (for a row's policy link). */
  objects: PolicyObjects;
  /** Something unique for this request (e-mails, codes, nicknames). */
  unique: string;
  photo: Buffer;
  avatar: Buffer;
}

/**
 * A policy action the row's request exercises: [module, action], asked about the row's target, or
 * [module, action, object] with the object worked out from the row's context and its request as sent
 * (undefined: none, e.g. creating something).
 */
export type PolicyLink = {
  [M in PolicyModule]: readonly [M, ActionOf<M>] | readonly [M, ActionOf<M>, (c: RowContext, request: RequestSpec) => ObjectOf<M> | undefined];
}[PolicyModule];

export interface MatrixRow {
  /** "METHOD /pattern" exactly as registered, e.g. 'PUT /api/bump-ad/:id'. */
  route: string;
  expect: Rule;
  /** The owned object the row acts on: its owner is who OWNER allows, its id fills the first :param. */
  target?: ObjectRef;
  request?: (c: RowContext) => RequestSpec;
  /** The status every allowed actor gets (GET and the main method; HEAD only has to pass authorization). */
  allowed?: number;
  /**
   * How the route refuses an object that is not the actor's, when it answers as it does for an
   * unknown one with another status than 404 (someone else's personal promo code is "not valid": 400).
   */
  notYours?: number;
  /**
   * The policy actions the request exercises (every row with a target names at least one). For
   * every actor, the request gets past authorization (no 401, 403, 404 nor the row's notYours)
   * exactly when every one of them answers yes for that actor.
   */
  policy?: PolicyLink | readonly PolicyLink[];
  /** Run twice: on provider's objects, then mirrored on otherProvider's (default: OWNER rows on provider's objects). */
  mirror?: boolean;
  /** A list of the actor's own objects: it holds the ids of theirs of these kinds, and no other owner's. */
  lists?: ObjectKind[];
  /** The answer is about the signed-in actor: it names their user id and no other actor's. */
  self?: boolean;
  note?: string;
}

const all = (o: Outcome): Record<Actor, Outcome> => ({
  provider: o,
  admin: o,
  master: o,
  otherProvider: o,
  pendingProvider: o,
  suspendedProvider: o,
  guest: o,
});

export const PUBLIC: Rule = all('allow');
/** Any live session: providers (pending ones too: PRODUCT §2), admins, masters. */
export const SIGNED_IN: Rule = { ...all('allow'), suspendedProvider: 'deny', guest: 'deny' };
export const STAFF: Rule = { ...all('deny'), admin: 'allow', master: 'allow' };
export const MASTER: Rule = { ...all('deny'), master: 'allow' };
/** Something only staff may see: anyone else gets 404, as for a thing that does not exist. */
export const STAFF_SEE: Rule = { ...all('hidden'), admin: 'allow', master: 'allow' };
export const NOBODY: Rule = all('deny');
const liveOwner = (actor: Actor, owner: Owner | null) => actor === owner && !SESSIONLESS.has(actor);
/** Only the owner of the row's target (with a live session); staff act on ads through /api/admin, never through the owner's routes. */
export const OWNER: Rule = (actor, owner) => (liveOwner(actor, owner) ? 'allow' : 'deny');
/** A public read of a non-public object: its owner (signed in) and staff see it, everyone else gets 404. */
/** The owner (signed in) and staff; anyone else signed in is refused as for an unknown object (the row's notYours). */
export const OWNER_AND_STAFF: Rule = (actor, owner) => (liveOwner(actor, owner) || actor === 'admin' || actor === 'master' ? 'allow' : 'deny');
export const OWNER_AND_STAFF_SEE: Rule = (actor, owner) => (liveOwner(actor, owner) || actor === 'admin' || actor === 'master' ? 'allow' : 'hidden');

export function outcomeOf(rule: Rule, actor: Actor, owner: Owner | null): Outcome {
  return typeof rule === 'function' ? rule(actor, owner) : rule[actor];
}
