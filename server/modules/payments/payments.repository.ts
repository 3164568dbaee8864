import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { InvoiceStatus } from '../../../contract/api/payments.ts';
import type { PaymentsTables } from './payments.tables.ts';

export type InvoiceRow = PaymentsTables['invoices'];

/** Statuses in which an invoice may still be paid. */
export const OPEN_STATUSES = ['New', 'Processing'] as const;
/**
 * Statuses BTCPay has closed but may still turn into Settled: an invoice paid late or short stays
 * Expired (or Invalid) until staff mark it (INTEGRATIONS.md), and that webhook can be lost.
 */
export const MARKABLE_STATUSES = ['Expired', 'Invalid'] as const;

export function insertInvoice(db: Executor, row: InvoiceRow) {
  return db.insertInto('invoices').values(row).execute();
}

export function findInvoice(db: Executor, id: string) {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByBtcpayId(db: Executor, btcpayId: string) {
  return db.selectFrom('invoices').selectAll().where('btcpay_id', '=', btcpayId).executeTakeFirst();
}

export function deleteCreating(db: Executor, id: string) {
  return db.deleteFrom('invoices').where('id', '=', id).where('status', '=', 'Creating').execute();
}

/** Unpaid invoices of the user that can still be paid (and intents being created). */
export async function countOpen(db: Executor, userId: string, now: string): Promise<number> {
  const r = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', ['Creating', 'New'])
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Fills in what BTCPay answered; the status only while nothing (a webhook) moved it on. */
export function completeCreation(
  db: Executor,
  id: string,
  v: { btcpayId: string; status: InvoiceStatus; additionalStatus: string; checkoutLink: string; expiresAt: string; at: string },
) {
  return db
    .updateTable('invoices')
    .set({
      btcpay_id: v.btcpayId,
      status: sql<InvoiceStatus>`CASE WHEN status = 'Creating' THEN ${v.status} ELSE status END`,
      additional_status: sql<string>`CASE WHEN status = 'Creating' THEN ${v.additionalStatus} ELSE additional_status END`,
      checkout_link: v.checkoutLink,
      expires_at: v.expiresAt,
      updated_at: v.at,
    })
    .where('id', '=', id)
    .execute();
}

/** A signed webhook named an invoice we asked for but have not heard back about (a crash, or the webhook overtook the answer). */
export async function adoptCreating(db: Executor, orderId: string, btcpayId: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('invoices')
    .set({ btcpay_id: btcpayId, status: 'New', updated_at: at })
    .where('id', '=', orderId)
    .where('status', '=', 'Creating')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Puts back an invoice BTCPay knows and we do not (created after the backup that was restored):
 * false when another delivery (or process) put it back first, or its order id is taken.
 */
export async function insertRecovered(db: Executor, row: InvoiceRow): Promise<boolean> {
  const r = await db
    .insertInto('invoices')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** The account an invoice's metadata names: its language, and whether it was erased. */
export function findPayer(db: Executor, userId: string) {
  return db.selectFrom('users').select(['id', 'locale', 'deleted_at']).where('id', '=', userId).executeTakeFirst();
}

/** Whether staff were told already (an audit row) of this payment to an invoice we do not know. */
export async function unknownPaidNoted(db: Executor, btcpayId: string): Promise<boolean> {
  const r = await db
    .selectFrom('audit_log')
    .select('id')
    .where('target_type', '=', 'invoice')
    .where('target_id', '=', btcpayId)
    .where('action', '=', 'invoice.unknown_paid')
    .executeTakeFirst();
  return r !== undefined;
}

export function setStatus(db: Executor, id: string, v: { status: InvoiceStatus; additionalStatus: string; at: string }) {
  return db
    .updateTable('invoices')
    .set({ status: v.status, additional_status: v.additionalStatus, checked_at: v.at, updated_at: v.at })
    .where('id', '=', id)
    .execute();
}

export function markCredited(db: Executor, id: string, at: string) {
  return db.updateTable('invoices').set({ credited_at: at }).where('id', '=', id).where('credited_at', 'is', null).execute();
}

/** Stores a delivery once per originalDeliveryId; false when it was there already (a redelivery). */
export async function insertDelivery(
  db: Executor,
  d: { originalDeliveryId: string; deliveryId: string; invoiceId: string; type: string; body: string | null; at: string },
): Promise<boolean> {
  const r = await db
    .insertInto('webhook_deliveries')
    .values({ original_delivery_id: d.originalDeliveryId, delivery_id: d.deliveryId, invoice_id: d.invoiceId, type: d.type, body: d.body, received_at: d.at })
    .onConflict((oc) => oc.column('original_delivery_id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export function noteRedelivery(db: Executor, originalDeliveryId: string, deliveryId: string) {
  return db
    .updateTable('webhook_deliveries')
    .set({ delivery_id: deliveryId, redeliveries: sql<number>`redeliveries + 1` })
    .where('original_delivery_id', '=', originalDeliveryId)
    .execute();
}

export function findDelivery(db: Executor, id: string) {
  return db.selectFrom('webhook_deliveries').selectAll().where('original_delivery_id', '=', id).executeTakeFirst();
}

export function finishDelivery(db: Executor, id: string, v: { status: string | null; outcome: string; at: string }) {
  return db
    .updateTable('webhook_deliveries')
    .set({ processed_at: v.at, status: v.status, outcome: v.outcome, attempts: sql<number>`attempts + 1`, last_error: null })
    .where('original_delivery_id', '=', id)
    .execute();
}

export function failDelivery(db: Executor, id: string, error: string) {
  return db
    .updateTable('webhook_deliveries')
    .set({ attempts: sql<number>`attempts + 1`, last_error: error.slice(0, 500) })
    .where('original_delivery_id', '=', id)
    .execute();
}

/** Deliveries stored but not processed (a crash, or BTCPay could not be asked), oldest first. */
export async function pendingDeliveries(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('original_delivery_id')
    .where('processed_at', 'is', null)
    .orderBy('received_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.original_delivery_id);
}

/**
 * Invoices to ask BTCPay about, least recently checked first: open ones (and settled ones not yet
 * credited) expiring in (expiresAfter, expiresBefore], and Expired/Invalid ones never credited
 * expiring in (markableAfter, expiresBefore], which staff may still mark Settled.
 */
export function invoicesToReconcile(db: Executor, v: { expiresAfter: string; markableAfter: string; expiresBefore: string | null; limit: number }) {
  let q = db
    .selectFrom('invoices')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([
          eb.or([eb('status', 'in', [...OPEN_STATUSES]), eb.and([eb('status', '=', 'Settled'), eb('credited_at', 'is', null)])]),
          eb('expires_at', '>', v.expiresAfter),
        ]),
        eb.and([eb('status', 'in', [...MARKABLE_STATUSES]), eb('credited_at', 'is', null), eb('expires_at', '>', v.markableAfter)]),
      ]),
    );
  if (v.expiresBefore) q = q.where('expires_at', '<=', v.expiresBefore);
  return q
    .orderBy(sql`coalesce(checked_at, '')`)
    .limit(v.limit)
    .execute();
}

/** Records that BTCPay was asked about the invoice when nothing could be applied, so the least-recently-checked rotation moves past it. */
export function noteChecked(db: Executor, id: string, at: string) {
  return db.updateTable('invoices').set({ checked_at: at }).where('id', '=', id).execute();
}

export function staleCreating(db: Executor, createdBefore: string) {
  return db.selectFrom('invoices').selectAll().where('status', '=', 'Creating').where('created_at', '<=', createdBefore).limit(100).execute();
}

export async function countOpenAll(db: Executor, now: string): Promise<number> {
  const r = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ['New', 'Processing'])
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function lastWebhookAt(db: Executor): Promise<string | null> {
  const r = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.max('received_at').as('at'))
    .where('type', '<>', 'Reconciled')
    .executeTakeFirst();
  return (r?.at as string | null | undefined) ?? null;
}

export async function listForUser(db: Executor, userId: string, v: { offset: number; limit: number }) {
  const base = db.selectFrom('invoices').where('user_id', '=', userId).where('status', '<>', 'Creating');
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(v.limit).offset(v.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/**
 * The staff's invoice list, newest first, and how many. The filters are read on invoices alone
 * (an e-mail as the ids of the users with it), so that each can use an index: an OR that named
 * users.email forced a scan of every invoice, and so did the count through the users join. Without
 * a status, the total is every invoice but those still 'Creating' (two index counts).
 */
export async function listForStaff(db: Executor, v: { query?: string; status?: InvoiceStatus; offset: number; limit: number }) {
  const q = v.query?.trim();
  let base = db.selectFrom('invoices as i');
  // With a search, the status is checked on the few invoices found (`+` keeps SQLite from walking
  // every invoice of that status by its index instead of looking the search up).
  if (v.status) base = base.where(q ? sql<string>`+i.status` : 'i.status', '=', v.status);
  else base = base.where('i.status', '<>', 'Creating');
  if (q) {
    const byEmail = db.selectFrom('users').select('id').where('email', '=', q.toLowerCase());
    base = base.where((eb) => eb.or([eb('i.btcpay_id', '=', q), eb('i.id', '=', q), eb('i.user_id', '=', q), eb('i.user_id', 'in', byEmail)]));
  }
  const page = base
    .leftJoin('users as u', 'u.id', 'i.user_id')
    .selectAll('i')
    .select('u.email as user_email')
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id')
    .limit(v.limit)
    .offset(v.offset);
  const count =
    q || v.status
      ? base.select((eb) => eb.fn.countAll<number>().as('n'))
      : db.selectNoFrom((eb) => [
          sql<number>`(${eb.selectFrom('invoices').select(eb.fn.countAll<number>().as('n'))}) - (${eb
            .selectFrom('invoices')
            .select(eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'Creating')})`.as('n'),
        ]);
  const [rows, total] = await Promise.all([page.execute(), count.executeTakeFirstOrThrow()]);
  return { rows, total: Number(total.n) };
}

export function eventsOf(db: Executor, invoiceIds: string[]) {
  if (!invoiceIds.length) return Promise.resolve([]);
  return db
    .selectFrom('webhook_deliveries')
    .select(['invoice_id', 'type', 'status', 'received_at', 'processed_at', 'outcome'])
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('received_at')
    .orderBy('original_delivery_id')
    .execute();
}

/**
 * The user's ledger entries, newest first, each with its wallet's balance right after it and what it
 * was for, read for the page's rows only: an ad's title (the ad's own, else its last stored version's
 * once it is deleted; only an ad of this user), a promo code as it was when redeemed (a later rename
 * by staff is in the audit log's first edit after it: the new code is not the user's to see).
 */
export async function transactions(db: Executor, v: { userId: string; walletId?: string; offset: number; limit: number }) {
  const walletFilter = v.walletId ? sql`AND w.id = ${v.walletId}` : sql``;
  const rows = await sql<{
    id: number;
    wallet_id: string;
    wallet_type: 'USD' | 'XG-PROMO-WALLET';
    kind: string;
    amount_cents: number;
    balance_after: number;
    reference: string | null;
    created_at: string;
    ad_exists: 0 | 1 | null;
    ad_title: string | null;
    promo_code: string | null;
  }>`
    SELECT t.*,
           CASE WHEN t.kind IN ('ad_payment', 'ad_refund', 'bump_payment') THEN a.id IS NOT NULL END AS ad_exists,
           CASE WHEN t.kind IN ('ad_payment', 'ad_refund', 'bump_payment') THEN coalesce(a.title,
             (SELECT json_extract(v.fields_json, '$.title') FROM ad_versions v
              WHERE v.ad_id = t.reference AND v.owner_id = t.user_id ORDER BY v.id DESC LIMIT 1)) END AS ad_title,
           CASE WHEN t.kind = 'promo_credit' THEN coalesce(
             (SELECT json_extract(l.before_json, '$.code') FROM audit_log l
              WHERE l.target_type = 'promo_code' AND l.target_id = t.reference AND l.action = 'promo_code.update'
                AND l.at > t.created_at ORDER BY l.at, l.id LIMIT 1), p.code) END AS promo_code
    FROM (
      SELECT e.id, e.wallet_id, w.wallet_type, w.user_id, e.kind, e.amount_cents, e.reference, e.created_at,
             sum(e.amount_cents) OVER (PARTITION BY e.wallet_id ORDER BY e.id) AS balance_after
      FROM ledger_entries e JOIN wallets w ON w.id = e.wallet_id
      WHERE w.user_id = ${v.userId} ${walletFilter}
      ORDER BY e.id DESC LIMIT ${v.limit} OFFSET ${v.offset}
    ) t
    LEFT JOIN ads a ON a.id = t.reference AND a.owner_id = t.user_id
    LEFT JOIN promo_redemptions r ON r.code_id = t.reference AND r.user_id = t.user_id
    LEFT JOIN promo_codes p ON p.id = r.code_id
    ORDER BY t.id DESC`.execute(db);
  const total = await sql<{ n: number }>`
    SELECT count(*) AS n FROM ledger_entries e JOIN wallets w ON w.id = e.wallet_id
    WHERE w.user_id = ${v.userId} ${walletFilter}`.execute(db);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}
