import type { AppDeps } from '../../core/deps.ts';
import type { Executor } from '../../core/db.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { writeAudit } from '../../core/audit.ts';
import { paging } from '../../core/http.ts';
import { PRICE_MAX_CENTS, PROMO_MAX_CENTS, RULE_CODES, checkPromoCode } from '../../../contract/rules.ts';
import { DEFAULT_PROMO_CENTS, type Pricing, type PromoCode } from '../../../contract/api/pricing.ts';
import { normalizePromoCode } from '../wallets/wallets.service.ts';
import type { ListingType, PricingKind } from '../ads/ads.tables.ts';
import { can } from './pricing.policy.ts';
import * as repo from './pricing.repository.ts';

export const MAX_PROMO_CENTS = PROMO_MAX_CENTS;
export const MAX_DURATION_DAYS = 365;

/** A price and a promo code as the API answers them (contract/api/pricing.ts). */
export type PricingDto = Pricing;
export type PromoCodeDto = PromoCode;

type PricingRow = Awaited<ReturnType<typeof repo.listPricing>>[number];
type PromoRow = NonNullable<Awaited<ReturnType<typeof repo.findPromoCodeById>>>;

export const toPricingDto = (p: PricingRow): PricingDto => ({
  id: p.id,
  kind: p.kind,
  listingType: p.listing_type,
  priceCents: p.price_cents,
  durationDays: p.duration_days,
});

export const toPromoDto = (p: PromoRow): PromoCodeDto => ({
  id: p.id,
  code: p.code,
  amountCents: p.amount_cents,
  maxUses: p.max_uses,
  uses: p.uses,
  expiresAt: p.expires_at,
  active: p.active === 1,
  personal: p.owner_user_id !== null,
  createdAt: p.created_at,
});

/** "2026-12-31" means the end of that day (UTC); a full ISO time is taken as given. Null = never expires. */
export function parseExpiry(v: string | null | undefined): string | null {
  if (v === null || v === undefined || v === '') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(v);
  if (!m) throw new Invalid('expiresAt', 'pricing.promo_expiry_invalid');
  const [, y, mo, d, h, mi, sec = '0', frac = '', zone = 'Z'] = m;
  // The day must exist and the time be one: Date.parse rolls 2099-02-30 over to 03-02 and 24:00
  // into the next day, an expiry nobody chose.
  const day = new Date(Date.UTC(+y, +mo - 1, +d));
  if (day.getUTCFullYear() !== +y || day.getUTCMonth() !== +mo - 1 || day.getUTCDate() !== +d || (h !== undefined && (+h > 23 || +mi > 59 || +sec > 59))) {
    throw new Invalid('expiresAt', 'pricing.promo_expiry_invalid');
  }
  // A day alone lasts to its end; a time without a zone is UTC (as every moment here is), not the server's zone.
  const t = h === undefined ? Date.parse(`${y}-${mo}-${d}T23:59:59.999Z`) : Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec.padStart(2, '0')}${frac}${zone}`);
  // A zone can carry 9999-12-31 into year 10000, whose ISO form (+010000-…) would sort before every
  // date: expiries are compared as text, so such a code would read as long past.
  if (Number.isNaN(t) || t > LAST_MOMENT) throw new Invalid('expiresAt', 'pricing.promo_expiry_invalid');
  return new Date(t).toISOString();
}
const LAST_MOMENT = Date.parse('9999-12-31T23:59:59.999Z');

const actorOf = (u: SessionUser) => ({ id: u.id, email: u.email });

/** A price as the admin's screen showed it (the request's `from`). */
export interface PriceSeen {
  priceCents: number;
  durationDays: number | null;
}
/** A promo code's edited fields as the admin's form showed them (the request's `from`). */
export interface PromoCodeSeen {
  code: string;
  amountCents: number;
  maxUses: number;
  expiresAt: string | null;
  active: boolean;
}
type PriceInput = { id: string; priceCents: number; durationDays?: number; from?: PriceSeen };
/** How long a kept price list is served before it is read again (real time). */
const RECHECK_MS = 1000;

export class PricingService {
  private readonly deps: AppDeps;
  private readonly pricingOfKind: (kind: PricingKind) => PricingRow[];
  /**
   * The public lists, asked on every posting page, kept in memory: setPrice drops them (one
   * PricingService per app), and a list older than RECHECK_MS is read again, for a price changed
   * by another server process on the file (its pages would show the old price, and every payment
   * naming it be refused as changed). Even a prepared read costs ~18 µs here (a read
   * transaction's file locks), most of such a request: once a second at most.
   */
  private readonly lists = new Map<PricingKind, { list: PricingDto[]; at: number }>();
  constructor(deps: AppDeps) {
    this.deps = deps;
    this.pricingOfKind = repo.pricingOfKindReader(deps.database.sqlite);
  }

  async list(kind?: PricingKind): Promise<PricingDto[]> {
    if (!kind) return (await repo.listPricing(this.deps.db)).map(toPricingDto);
    const now = performance.now();
    let kept = this.lists.get(kind);
    if (!kept || now - kept.at > RECHECK_MS) this.lists.set(kind, (kept = { list: this.pricingOfKind(kind).map(toPricingDto), at: now }));
    return kept.list;
  }

  /**
   * `from`: the price the admin's screen showed. The form sends every field, so writing it over a
   * price another admin changed meanwhile would revert theirs: refused (409), nothing written.
   */
  async setPrice(actor: SessionUser, input: PriceInput): Promise<PricingDto> {
    try {
      return await this.updatePrice(actor, input);
    } finally {
      // Also after a failure: a list read meanwhile may have seen the uncommitted price.
      this.lists.clear();
    }
  }

  private async updatePrice(actor: SessionUser, input: PriceInput): Promise<PricingDto> {
    if (!can(actor, 'setPrice', { id: input.id })) throw new Forbidden();
    if (!Number.isInteger(input.priceCents) || input.priceCents < 0 || input.priceCents > PRICE_MAX_CENTS) {
      throw new Invalid('priceCents', 'pricing.price_out_of_range', { max: PRICE_MAX_CENTS });
    }
    return transactionAs(this.deps.db, actor, async (trx, by) => {
      if (!can(by, 'setPrice', { id: input.id })) throw new Forbidden(); // still staff now
      const before = await repo.findPricing(trx, input.id);
      if (!before) throw new NotFound('pricing.not_found');
      if (input.from && (input.from.priceCents !== before.price_cents || input.from.durationDays !== before.duration_days)) {
        throw new Conflict('pricing.changed_meanwhile');
      }
      let durationDays = before.duration_days;
      if (input.durationDays !== undefined) {
        if (before.kind === 'bump') throw new Invalid('durationDays', 'pricing.bump_has_no_duration');
        if (!Number.isInteger(input.durationDays) || input.durationDays < 1 || input.durationDays > MAX_DURATION_DAYS) {
          throw new Invalid('durationDays', 'pricing.duration_out_of_range', { max: MAX_DURATION_DAYS });
        }
        durationDays = input.durationDays;
      }
      // The same price saved again (the form re-submitted, a retry): nothing changes, nothing to audit.
      if (input.priceCents === before.price_cents && durationDays === before.duration_days) return toPricingDto(before);
      const at = this.deps.clock.now().toISOString();
      await repo.updatePricing(trx, before.id, { priceCents: input.priceCents, durationDays, at });
      const after = { ...before, price_cents: input.priceCents, duration_days: durationDays, updated_at: at };
      await writeAudit(trx, {
        actor: actorOf(actor),
        action: 'pricing.update',
        targetType: 'pricing',
        targetId: before.id,
        before: toPricingDto(before),
        after: toPricingDto(after),
        at,
      });
      return toPricingDto(after);
    });
  }

  async listPromoCodes(q: { page?: number; pageSize?: number; includePersonal?: boolean }) {
    const { page, pageSize, offset } = paging(q);
    const { rows, total } = await repo.listPromoCodes(this.deps.db, { includePersonal: q.includePersonal ?? false, offset, limit: pageSize });
    return { promoCodes: rows.map(toPromoDto), total, page, pageSize };
  }

  /**
   * Creates (no id) or updates a promo code; audited. Returns whether it was created. `from`
   * (updates): the code as the admin's form showed it; when another admin changed any of those
   * fields meanwhile (say, switched off a leaked code), writing the stale form would undo it:
   * refused (409), nothing written.
   */
  async setPromoCode(
    actor: SessionUser,
    input: { id?: string; code: string; amountCents?: number; maxUses: number; expiresAt?: string | null; active: boolean; from?: PromoCodeSeen },
  ): Promise<{ promoCode: PromoCodeDto; created: boolean }> {
    if (!can(actor, 'setPromoCode', input.id === undefined ? undefined : { id: input.id })) throw new Forbidden();
    const code = normalizePromoCode(input.code);
    if (checkPromoCode(code)) throw new Invalid('code', RULE_CODES.promoCodeInvalid);
    if (input.amountCents !== undefined && (!Number.isInteger(input.amountCents) || input.amountCents < 1 || input.amountCents > MAX_PROMO_CENTS)) {
      throw new Invalid('amountCents', 'pricing.promo_amount_out_of_range', { max: MAX_PROMO_CENTS });
    }
    if (!Number.isInteger(input.maxUses) || input.maxUses < 1 || input.maxUses > 1_000_000) {
      throw new Invalid('maxUses', 'pricing.promo_max_uses_out_of_range');
    }
    // Left out of an update, the code keeps its expiry (only null or "" says "none").
    const expiresAt = input.expiresAt === undefined && input.id !== undefined ? undefined : parseExpiry(input.expiresAt);
    const now = this.deps.clock.now().toISOString();
    return transactionAs(this.deps.db, actor, async (trx, by) => {
      if (!can(by, 'setPromoCode', input.id === undefined ? undefined : { id: input.id })) throw new Forbidden(); // still staff now
      const clash = await repo.findPromoCodeByCode(trx, code);
      if (clash && clash.id !== input.id) throw new Conflict('pricing.promo_code_taken');
      if (input.id === undefined) {
        if (expiresAt != null && expiresAt <= now) throw new Invalid('expiresAt', 'pricing.promo_expiry_past');
        const id = newId();
        await repo.insertPromoCode(trx, {
          id,
          code,
          amountCents: input.amountCents ?? DEFAULT_PROMO_CENTS,
          maxUses: input.maxUses,
          expiresAt: expiresAt ?? null,
          active: input.active,
          by: actor.id, // its author may not redeem it (wallets.policy.ts)
          at: now,
        });
        const row = (await repo.findPromoCodeById(trx, id))!;
        await writeAudit(trx, { actor: actorOf(actor), action: 'promo_code.create', targetType: 'promo_code', targetId: id, after: toPromoDto(row), at: now });
        return { promoCode: toPromoDto(row), created: true };
      }
      const before = await repo.findPromoCodeById(trx, input.id);
      if (!before) throw new NotFound('pricing.promo_code_not_found');
      if (input.from && !sameAsSeen(before, input.from)) throw new Conflict('pricing.promo_code_changed_meanwhile');
      if (input.maxUses < before.uses) throw new Invalid('maxUses', 'pricing.promo_max_uses_below_uses', { uses: before.uses });
      const edited = {
        code,
        amountCents: input.amountCents ?? before.amount_cents,
        maxUses: input.maxUses,
        expiresAt: expiresAt === undefined ? before.expires_at : expiresAt,
        active: input.active,
      };
      // Saved unchanged: nothing to write or audit, and its last editor stays who really edited it
      // (an editor may not redeem it: the saving admin must not become one by a no-op).
      if (sameAsSeen(before, edited)) return { promoCode: toPromoDto(before), created: false };
      await repo.updatePromoCode(trx, before.id, {
        ...edited,
        by: actor.id, // nor may its last editor (a personal code's too: its owner editing it as staff)
        at: now,
      });
      const row = (await repo.findPromoCodeById(trx, before.id))!;
      await writeAudit(trx, {
        actor: actorOf(actor),
        action: 'promo_code.update',
        targetType: 'promo_code',
        targetId: before.id,
        before: toPromoDto(before),
        after: toPromoDto(row),
        at: now,
      });
      return { promoCode: toPromoDto(row), created: false };
    });
  }
}

/** Whether a stored promo code has these edited fields, as the form showed them or as saved (the code compared as it would be stored). */
function sameAsSeen(row: PromoRow, seen: PromoCodeSeen): boolean {
  return (
    row.code === normalizePromoCode(seen.code) &&
    row.amount_cents === seen.amountCents &&
    row.max_uses === seen.maxUses &&
    row.expires_at === seen.expiresAt &&
    (row.active === 1) === seen.active
  );
}

/** The current price of an ad or a bump for a listing type (every type has one: seeded, never deleted). */
export async function currentPrice(db: Executor, kind: PricingKind, listingType: ListingType) {
  const p = await repo.priceFor(db, kind, listingType);
  if (!p) throw new Error(`no ${kind} price for ${listingType}`);
  return { priceCents: p.price_cents, durationDays: p.duration_days };
}

/** An ad's term when its price names none. */
export const DEFAULT_AD_DAYS = 30;

/** What the payer was shown before paying (the body of a payment, bump or renewal may carry it). */
export interface Quote {
  priceCents?: number;
  /** Ads only: the days the price buys. */
  durationDays?: number;
}

/**
 * The current price, checked against what the payer was shown: a price (or term) changed since is
 * refused with 409 pricing.price_changed, naming the new one, before anything is charged.
 */
export async function quotedPrice(db: Executor, kind: PricingKind, listingType: ListingType, quote: Quote | undefined) {
  const price = await currentPrice(db, kind, listingType);
  const days = kind === 'ad' ? (price.durationDays ?? DEFAULT_AD_DAYS) : null;
  const priceMoved = quote?.priceCents !== undefined && quote.priceCents !== price.priceCents;
  const termMoved = quote?.durationDays !== undefined && quote.durationDays !== days;
  if (priceMoved || termMoved) throw new Conflict('pricing.price_changed', { priceCents: price.priceCents, ...(days === null ? {} : { durationDays: days }) });
  return { priceCents: price.priceCents, durationDays: days ?? DEFAULT_AD_DAYS };
}
