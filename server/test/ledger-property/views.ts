import { sql } from 'kysely';
import type { Db } from '../../core/db.ts';
import { ledgerDiscrepancies } from '../../modules/wallets/ledger.service.ts';
import { isoOrNull } from './http.ts';
import type { World } from './model.ts';

// State in one shape for the model and for the system, so that one toEqual compares all of it;
// and the ledger's invariants over the whole database, whatever the model says.

export interface View {
  wallets: Record<string, number>;
  codes: Record<string, { uses: number; maxUses: number; active: boolean; redeemedBy: number[] }>;
  ads: Record<string, { status: string; priceCents: number | null; paidWallet: string | null; bumpedAt: string | null; expiresAt: string | null }>;
  ledgerRows: number;
}

export function modelView(w: World): View {
  const wallets: View['wallets'] = {};
  w.users.forEach((u, i) => {
    wallets[`u${i}:USD`] = u.usd;
    if (u.promoExists) wallets[`u${i}:PROMO`] = u.promo;
  });
  const codes: View['codes'] = {};
  for (const c of w.codes) codes[c.code] = { uses: c.uses, maxUses: c.maxUses, active: c.active, redeemedBy: [...c.redeemedBy].sort() };
  const ads: View['ads'] = {};
  w.ads.forEach((a, i) => {
    ads[`#${i}`] = {
      status: a.status,
      priceCents: a.priceCents,
      paidWallet: a.paidWallet ? `u${a.paidWallet.user}:${a.paidWallet.type}` : null,
      bumpedAt: isoOrNull(a.bumpedAt),
      expiresAt: isoOrNull(a.expiresAt),
    };
  });
  return { wallets, codes, ads, ledgerRows: w.ledgerRows };
}

export async function systemView(db: Db, w: World): Promise<View> {
  const userIdx = new Map(w.users.map((u, i) => [u.id, i]));
  const walletRows = await db
    .selectFrom('wallets')
    .select(['id', 'user_id', 'wallet_type', 'balance_cents'])
    .where('user_id', 'in', [...userIdx.keys()])
    .execute();
  const walletKey = new Map<string, string>();
  const wallets: View['wallets'] = {};
  for (const r of walletRows) {
    const key = `u${userIdx.get(r.user_id)}:${r.wallet_type === 'USD' ? 'USD' : 'PROMO'}`;
    walletKey.set(r.id, key);
    wallets[key] = r.balance_cents;
  }
  const codes: View['codes'] = {};
  if (w.codes.length) {
    const rows = await db
      .selectFrom('promo_codes')
      .selectAll()
      .where(
        'id',
        'in',
        w.codes.map((c) => c.id),
      )
      .execute();
    const redemptions = await db
      .selectFrom('promo_redemptions')
      .select(['code_id', 'user_id'])
      .where(
        'code_id',
        'in',
        w.codes.map((c) => c.id),
      )
      .execute();
    for (const r of rows) {
      codes[r.code] = {
        uses: r.uses,
        maxUses: r.max_uses,
        active: r.active === 1,
        redeemedBy: redemptions
          .filter((x) => x.code_id === r.id)
          .map((x) => userIdx.get(x.user_id) ?? -1)
          .sort(),
      };
    }
  }
  const ads: View['ads'] = {};
  const adIds = w.ads.map((a) => a.id);
  if (adIds.length) {
    const rows = await db
      .selectFrom('ads')
      .select(['id', 'status', 'price_cents', 'paid_wallet_id', 'bumped_at', 'expires_at'])
      .where('id', 'in', adIds)
      .execute();
    for (const r of rows) {
      ads[`#${adIds.indexOf(r.id)}`] = {
        status: r.status,
        priceCents: r.price_cents,
        paidWallet: r.paid_wallet_id === null ? null : (walletKey.get(r.paid_wallet_id) ?? `foreign:${r.paid_wallet_id}`),
        bumpedAt: r.bumped_at,
        expiresAt: r.expires_at,
      };
    }
  }
  const n = walletRows.length
    ? await db
        .selectFrom('ledger_entries')
        .select(sql<number>`count(*)`.as('n'))
        .where(
          'wallet_id',
          'in',
          walletRows.map((r) => r.id),
        )
        .executeTakeFirstOrThrow()
    : { n: 0 };
  return { wallets, codes, ads, ledgerRows: Number(n.n) };
}

/** Learns the ids of promo wallets the system created (the model only knows that they exist). */
export async function learnPromoWallets(db: Db, w: World): Promise<void> {
  for (const u of w.users) {
    if (u.promoExists && !u.promoWalletId) {
      const r = await db.selectFrom('wallets').select('id').where('user_id', '=', u.id).where('wallet_type', '=', 'XG-PROMO-WALLET').executeTakeFirst();
      u.promoWalletId = r?.id ?? null;
    }
  }
}

/** This world's wallets whose balance is not the sum of their ledger entries, or is negative (one query, for every step). */
export async function worldLedgerMismatches(db: Db, w: World): Promise<string[]> {
  const rows = await db
    .selectFrom('wallets as x')
    .leftJoin('ledger_entries as e', 'e.wallet_id', 'x.id')
    .select(['x.id', 'x.balance_cents', sql<number>`coalesce(sum(e.amount_cents), 0)`.as('sum')])
    .where(
      'x.user_id',
      'in',
      w.users.map((u) => u.id),
    )
    .groupBy('x.id')
    .execute();
  return rows.filter((r) => r.balance_cents !== r.sum || r.balance_cents < 0).map((r) => `wallet ${r.id}: balance ${r.balance_cents}, ledger sum ${r.sum}`);
}

/**
 * The ledger's invariants over the whole database, whatever the model: every balance is the sum of
 * its entries and never negative, no idempotency key twice, every ad paid and refunded at most once
 * (a refund exactly the payment, to the wallet that paid), every code used as often as redeemed and
 * credited once per redemption. Returns the violations (empty when all hold).
 */
export async function ledgerInvariants(db: Db): Promise<string[]> {
  const bad: string[] = [];
  for (const d of await ledgerDiscrepancies(db)) bad.push(`wallet ${d.id}: balance ${d.balance_cents} but ledger sum ${d.ledger_sum}`);
  const q = async <T>(text: string) => (await sql<T>`${sql.raw(text)}`.execute(db)).rows;
  for (const r of await q<{ k: string; n: number }>('SELECT idempotency_key AS k, count(*) AS n FROM ledger_entries GROUP BY idempotency_key HAVING n > 1'))
    bad.push(`key ${r.k} used ${r.n} times`);
  for (const r of await q<{ ref: string; n: number }>(
    "SELECT reference AS ref, count(*) AS n FROM ledger_entries WHERE kind = 'ad_payment' GROUP BY reference HAVING n > 1",
  ))
    bad.push(`ad ${r.ref} paid ${r.n} times`);
  for (const r of await q<{ ref: string; n: number }>(
    "SELECT reference AS ref, count(*) AS n FROM ledger_entries WHERE kind = 'ad_refund' GROUP BY reference HAVING n > 1",
  ))
    bad.push(`ad ${r.ref} refunded ${r.n} times`);
  for (const r of await q<{ ref: string }>(
    `SELECT f.reference AS ref FROM ledger_entries f
     LEFT JOIN (SELECT reference, wallet_id, amount_cents FROM ledger_entries WHERE kind = 'ad_payment') p ON p.reference = f.reference
     WHERE f.kind = 'ad_refund' AND (p.reference IS NULL OR p.wallet_id <> f.wallet_id OR p.amount_cents <> -f.amount_cents)`,
  ))
    bad.push(`ad ${r.ref} refunded other than it was paid`);
  for (const r of await q<{ id: string; uses: number; n: number; credits: number }>(
    `SELECT c.id, c.uses, coalesce(r.n, 0) AS n, coalesce(e.n, 0) AS credits FROM promo_codes c
     LEFT JOIN (SELECT code_id, count(*) AS n FROM promo_redemptions GROUP BY code_id) r ON r.code_id = c.id
     LEFT JOIN (SELECT reference, count(*) AS n FROM ledger_entries WHERE kind = 'promo_credit' GROUP BY reference) e ON e.reference = c.id
     WHERE c.uses <> coalesce(r.n, 0) OR coalesce(e.n, 0) <> coalesce(r.n, 0) OR c.uses > c.max_uses`,
  ))
    bad.push(`code ${r.id}: uses ${r.uses}, redemptions ${r.n}, credits ${r.credits}`);
  for (const r of await q<{ id: string }>(
    "SELECT id FROM ads WHERE status <> 'unpaid' AND price_cents > 0 AND id NOT IN (SELECT reference FROM ledger_entries WHERE kind = 'ad_payment')",
  )) {
    bad.push(`ad ${r.id} left the cart without a payment`);
  }
  return bad;
}
