import type Database from 'better-sqlite3';
import { loadSessionUser } from '../../core/auth.ts';
import type { Clock } from '../../core/clock.ts';
import type { Db } from '../../core/db.ts';
import type { Actor as PolicyActor } from '../../core/policy.ts';
import type { StaffRole, UserStatus } from '../../core/schema.ts';
import * as ads from '../../modules/ads/ads.policy.ts';
import * as auth from '../../modules/auth/auth.policy.ts';
import * as listings from '../../modules/listings/listings.policy.ts';
import * as locations from '../../modules/locations/locations.policy.ts';
import * as master from '../../modules/master/master.policy.ts';
import * as moderation from '../../modules/moderation/moderation.policy.ts';
import * as payments from '../../modules/payments/payments.policy.ts';
import * as pricing from '../../modules/pricing/pricing.policy.ts';
import * as profile from '../../modules/profile/profile.policy.ts';
import * as reports from '../../modules/reports/reports.policy.ts';
import * as wallets from '../../modules/wallets/wallets.policy.ts';
import type { MatrixRow, ObjectKind, PolicyLink, RequestSpec, RowContext } from './vocabulary.ts';

// The link between the matrix and the policies (core/policy.ts): a row names the policy actions
// its request exercises (`policy: ['ads', 'pay']`), and for every actor the request must get past
// authorization exactly when every named module's can(actor, action, object) says yes, asked about
// the fixture's objects as they are just before the request.

/** Every module's policy, by the name rows give it. */
export const POLICIES = { ads, auth, listings, locations, master, moderation, payments, pricing, profile, reports, wallets };
export type Policies = typeof POLICIES;
export type PolicyModule = keyof Policies;
export type ActionOf<M extends PolicyModule> = Policies[M]['ACTIONS'][number];
export type ObjectOf<M extends PolicyModule> = NonNullable<Parameters<Policies[M]['can']>[2]>;

/** A user as master.policy.ts and profile.policy.ts see them. */
export interface AccountView {
  id: string;
  roles: StaffRole[];
  status: UserStatus;
}

/**
 * The fixture's objects as the policies see them, read from the database when asked (undefined:
 * there is no such object). The shapes are the services' (what they load before asking).
 */
export class PolicyObjects {
  private readonly sqlite: Database.Database;
  private readonly clock: Clock;
  constructor(sqlite: Database.Database, clock: Clock) {
    this.sqlite = sqlite;
    this.clock = clock;
  }

  private get<T>(sql: string, ...args: unknown[]): T | undefined {
    return this.sqlite.prepare(sql).get(...args) as T | undefined;
  }

  /** An ad: whose it is, and whether it is public now (visible and not expired, as the public reads say). */
  ad(id: string): { ownerId: string; isPublic: boolean } | undefined {
    const r = this.get<{ owner_id: string; visible: number; expires_at: string | null }>('SELECT owner_id, visible, expires_at FROM ads WHERE id = ?', id);
    return r && { ownerId: r.owner_id, isPublic: r.visible === 1 && r.expires_at !== null && r.expires_at > this.clock.now().toISOString() };
  }

  wallet(id: string): { ownerId: string } | undefined {
    const r = this.get<{ user_id: string }>('SELECT user_id FROM wallets WHERE id = ?', id);
    return r && { ownerId: r.user_id };
  }

  /** A promo code, by the code itself: whose it is (null: anyone's). */
  code(code: string): { ownerId: string | null; authors: (string | null)[] } | undefined {
    const r = this.get<{ owner_user_id: string | null; created_by: string | null; updated_by: string | null }>(
      'SELECT owner_user_id, created_by, updated_by FROM promo_codes WHERE code = ?',
      code,
    );
    return r && { ownerId: r.owner_user_id, authors: [r.created_by, r.updated_by] };
  }

  /** A Bitcoin invoice, by BTCPay's id: whose it is (the matrix speaks from 127.0.0.1, the server's own machine). */
  invoice(id: string): { ownerId: string; fromLoopback: boolean } | undefined {
    const r = this.get<{ user_id: string }>('SELECT user_id FROM invoices WHERE btcpay_id = ?', id);
    return r && { ownerId: r.user_id, fromLoopback: true };
  }

  report(id: string): { id: string; adOwnerId: string | null } | undefined {
    return this.get<{ id: string; adOwnerId: string | null }>(
      'SELECT r.id, a.owner_id AS adOwnerId FROM reports r LEFT JOIN ads a ON a.id = r.ad_id WHERE r.id = ?',
      id,
    );
  }

  /** A live (not erased) user, by id; none for a guest (null). */
  user(id: string | null): AccountView | undefined {
    if (id === null) return undefined;
    const u = this.get<{ id: string; status: UserStatus }>('SELECT id, status FROM users WHERE id = ? AND deleted_at IS NULL', id);
    if (!u) return undefined;
    const roles = this.sqlite.prepare('SELECT role FROM user_roles WHERE user_id = ?').pluck().all(id) as StaffRole[];
    const order: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'];
    return { id: u.id, status: u.status, roles: order.filter((r) => roles.includes(r)) };
  }

  /** A live user, by e-mail (case-insensitive, as accounts are). */
  account(email: string): AccountView | undefined {
    const r = this.get<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower(?) AND deleted_at IS NULL', email);
    return r ? this.user(r.id) : undefined;
  }

  /** Masters that can act: not suspended, not erased. */
  activeMasters(): number {
    return this.sqlite
      .prepare(
        `SELECT count(*) FROM user_roles r JOIN users u ON u.id = r.user_id
      WHERE r.role = 'MASTER_USER' AND u.deleted_at IS NULL AND u.status != 'suspended'`,
      )
      .pluck()
      .get() as number;
  }

  /** An owned object of the fixture (a row's target) as its module's policy sees it. */
  of(kind: ObjectKind, id: string): unknown {
    switch (kind) {
      case 'cartAd':
      case 'reviewAd':
      case 'liveAd':
        return this.ad(id);
      case 'usdWallet':
      case 'promoWallet':
        return this.wallet(id);
      case 'personalCode':
        return this.code(id);
      case 'report':
        return this.report(id);
      case 'invoice':
        return this.invoice(id);
    }
  }
}

/** An actor as a policy sees them: the user as stored now (a suspended one too), null for a guest. */
export async function policyActor(db: Db, userId: string | null): Promise<PolicyActor> {
  return userId === null ? null : loadSessionUser(db, userId);
}

/** The links a row names (one or several). */
export function linksOf(row: MatrixRow): readonly PolicyLink[] {
  if (!row.policy) return [];
  return (Array.isArray(row.policy[0]) ? row.policy : [row.policy]) as readonly PolicyLink[];
}

type AnyPolicy = (actor: PolicyActor, action: string, object?: unknown) => boolean;

/**
 * What the row's policies answer for this actor, before the request is sent: null when the row
 * names none; otherwise whether every one allows, and each answer spelled out for a failure message.
 */
export function askPolicies(row: MatrixRow, actor: PolicyActor, c: RowContext, spec: RequestSpec): { allows: boolean; said: string } | null {
  const links = linksOf(row);
  if (!links.length) return null;
  const answers = links.map((link) => {
    const [module, action, objectOf] = link as readonly [PolicyModule, string, ((c: RowContext, r: RequestSpec) => unknown)?];
    const object = objectOf ? objectOf(c, spec) : row.target ? c.objects.of(row.target.split('.')[1] as ObjectKind, c.id(row.target)) : undefined;
    const yes = (POLICIES[module].can as AnyPolicy)(actor, action, object);
    return { yes, text: `${module}.can(${action}) = ${yes}` };
  });
  return { allows: answers.every((a) => a.yes), said: answers.map((a) => a.text).join(', ') };
}

/** Every action of every policy, as 'module.action'. */
export const everyPolicyAction = (): string[] =>
  (Object.entries(POLICIES) as [PolicyModule, { ACTIONS: readonly string[] }][]).flatMap(([m, p]) => p.ACTIONS.map((a) => `${m}.${a}`));
