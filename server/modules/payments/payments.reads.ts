import type { AppDeps } from '../../core/deps.ts';
import type { SessionUser } from '../../core/auth.ts';
import { paging } from '../../core/http.ts';
import type { AdminInvoice, Invoice, InvoiceEvent, InvoiceStatus, Transaction } from '../../../contract/api/payments.ts';
import { usableWallet } from '../wallets/wallets.service.ts';
import * as repo from './payments.repository.ts';

// The payments' reads: a provider's invoices and ledger rows, staff's list of invoices.

const toInvoiceDto = (r: repo.InvoiceRow): Invoice => ({
  invoiceId: r.btcpay_id ?? r.id,
  walletId: r.wallet_id,
  amountCents: r.amount_cents,
  status: r.status === 'Creating' ? 'New' : r.status,
  additionalStatus: r.additional_status,
  checkoutLink: r.checkout_link ?? '',
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  creditedAt: r.credited_at,
});

/** A provider's own invoices, newest first. */
export async function listMine(deps: AppDeps, userId: string, q: { page?: number; pageSize?: number }) {
  const { page, pageSize, offset } = paging(q);
  const { rows, total } = await repo.listForUser(deps.db, userId, { offset, limit: pageSize });
  return { invoices: rows.map(toInvoiceDto), total, page, pageSize };
}

/** A provider's ledger rows (one wallet of theirs, or both). */
export async function transactions(deps: AppDeps, actor: SessionUser, q: { page?: number; pageSize?: number; walletId?: string }) {
  const { page, pageSize, offset } = paging(q);
  if (q.walletId !== undefined) await usableWallet(deps.db, actor, q.walletId);
  const { rows, total } = await repo.transactions(deps.db, { userId: actor.id, walletId: q.walletId, offset, limit: pageSize });
  const transactions: Transaction[] = rows.map((r) => ({
    id: r.id,
    walletId: r.wallet_id,
    walletType: r.wallet_type,
    kind: r.kind,
    amountCents: r.amount_cents,
    balanceAfterCents: r.balance_after,
    reference: r.reference,
    createdAt: r.created_at,
    adTitle: r.ad_title,
    adDeleted: r.ad_exists === null ? null : !r.ad_exists,
    promoCode: r.promo_code,
    invoiceId: r.kind === 'invoice_credit' ? r.reference : null,
  }));
  return { transactions, total, page, pageSize };
}

/** Every invoice, for staff, with the webhook deliveries and reconciliations each had. */
export async function adminList(deps: AppDeps, q: { page?: number; pageSize?: number; query?: string; status?: InvoiceStatus }) {
  const { page, pageSize, offset } = paging(q);
  const { rows, total } = await repo.listForStaff(deps.db, { query: q.query, status: q.status, offset, limit: pageSize });
  const events = await repo.eventsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  const byInvoice = new Map<string, InvoiceEvent[]>();
  for (const e of events) {
    const list = byInvoice.get(e.invoice_id) ?? [];
    list.push({ type: e.type, status: e.status, receivedAt: e.received_at, processedAt: e.processed_at, outcome: e.outcome });
    byInvoice.set(e.invoice_id, list);
  }
  const invoices: AdminInvoice[] = rows.map((r) => ({
    ...toInvoiceDto(r),
    userId: r.user_id,
    userEmail: r.user_email ?? null,
    events: byInvoice.get(r.id) ?? [],
  }));
  return { invoices, total, page, pageSize };
}
