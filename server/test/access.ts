// The authorization matrix's vocabulary. Each module lists every route it registers in
// server/modules/<module>/<module>.access.ts as `export const accessRows: AccessRow[]`;
// server/test/authorization-matrix.test.ts enumerates every registered route and fails when one
// has no row, then checks each row for each actor.

export type Actor = 'guest' | 'provider' | 'otherProvider' | 'admin' | 'master';

/**
 * 'allow': the actor gets past authorization (any status but 401/403; 404 is fine when the
 *          request names no real resource).
 * 'deny':  401 for a guest, 403 (or 404 for another user's resource) for a signed-in actor.
 */
export type Outcome = 'allow' | 'deny';

export interface AccessRow {
  /** "METHOD /pattern" exactly as registered, e.g. 'PUT /api/bump-ad/:id'. */
  route: string;
  expect: Record<Actor, Outcome>;
  /** Optional concrete request; otherwise :params are filled with 'x' and a JSON body of {}. */
  request?: { url?: string; payload?: unknown; headers?: Record<string, string> };
  /** When the route acts on a resource owned by 'provider', otherProvider must be refused. */
  note?: string;
}

export const PUBLIC: Record<Actor, Outcome> = { guest: 'allow', provider: 'allow', otherProvider: 'allow', admin: 'allow', master: 'allow' };
export const SIGNED_IN: Record<Actor, Outcome> = { guest: 'deny', provider: 'allow', otherProvider: 'allow', admin: 'allow', master: 'allow' };
export const STAFF: Record<Actor, Outcome> = { guest: 'deny', provider: 'deny', otherProvider: 'deny', admin: 'allow', master: 'allow' };
export const MASTER: Record<Actor, Outcome> = { guest: 'deny', provider: 'deny', otherProvider: 'deny', admin: 'deny', master: 'allow' };
