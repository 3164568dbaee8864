import type { AppDeps } from '../../core/deps.ts';
import { writeAudit } from '../../core/audit.ts';
import { newId } from '../../core/ids.ts';
import { formatUsd, decimalToCents } from '../../../contract/amount.ts';
import type { InvoiceStatus } from '../../../contract/api/payments.ts';
import { composeMail, pageLink, utcMoment } from '../../core/mail-templates.ts';
import { postToLedger } from '../wallets/ledger.service.ts';
import * as walletsRepo from '../wallets/wallets.repository.ts';
import type { GreenfieldInvoice } from './provider.ts';
import * as repo from './payments.repository.ts';

// What BTCPay says of an invoice, applied to ours: its status, the credit once Settled, the
// owner's socket event and receipt. Webhook deliveries and the reconciliation jobs both end here.

/** What processing a delivery or a reconciliation did to an invoice. */
export type Outcome = 'credited' | 'already_credited' | 'status_changed' | 'no_change' | 'refused_mismatch' | 'unknown_at_server';

/** A webhook delivery being processed, or a reconciliation's own read. */
export type ApplySource = { deliveryId: string; type: string } | { reconcile: true };

const EVENT_OF_STATUS: Record<InvoiceStatus, string | null> = {
  // Back to New from Processing (a payment stopped counting: BTCPay sends no webhook for it).
  New: 'INVOICESTATUSCHANGED',
  Processing: 'INVOICEPROCESSING',
  Settled: 'INVOICESETTLED',
  Expired: 'INVOICEEXPIRED',
  Invalid: 'INVOICEINVALID',
};

/**
 * Applies what BTCPay says of an invoice, in one transaction: its status, and when Settled the
 * credit (ledger key `invoice:<BTCPay id>`: once, whoever gets there first). Then tells the
 * owner's sockets, and e-mails the receipt when this call credited it.
 */
export async function applyInvoice(deps: AppDeps, invoice: repo.InvoiceRow, gf: GreenfieldInvoice | null, source: ApplySource): Promise<Outcome> {
  const at = deps.clock.now().toISOString();
  const btcpayId = invoice.btcpay_id!;
  let outcome: Outcome;
  let status: InvoiceStatus | null = gf?.status ?? null;
  let balanceCents = 0;
  let stale = false;
  await deps.db.transaction().execute(async (trx) => {
    const current = (await repo.findInvoice(trx, invoice.id))!;
    if (!gf) {
      outcome = 'unknown_at_server';
      await repo.noteChecked(trx, current.id, at);
    } else if (
      gf.id !== btcpayId ||
      decimalToCents(gf.amount) !== current.amount_cents ||
      gf.currency.toUpperCase() !== 'USD' ||
      (typeof gf.metadata.orderId === 'string' && gf.metadata.orderId !== current.id)
    ) {
      outcome = 'refused_mismatch';
      await repo.noteChecked(trx, current.id, at);
      deps.log.error(
        { invoiceId: btcpayId, amount: gf.amount, currency: gf.currency },
        'payments: BTCPay describes this invoice differently from ours; nothing applied',
      );
    } else if ((current.status === 'Settled' || current.credited_at) && gf.status !== 'Settled' && gf.status !== 'Invalid') {
      // BTCPay never takes a Settled invoice back to New, Processing or Expired (only staff's
      // Invalid mark moves it on): such an answer was read before the settlement and arrived
      // after it (a slow reconcile read racing the webhook, or another process's). Not applied.
      outcome = 'no_change';
      stale = true;
      await repo.noteChecked(trx, current.id, at);
      status = current.status === 'Creating' ? null : current.status;
    } else {
      const changed = current.status !== gf.status || current.additional_status !== gf.additionalStatus;
      await repo.setStatus(trx, current.id, { status: gf.status, additionalStatus: gf.additionalStatus, at });
      if (current.credited_at && gf.status !== 'Settled' && changed) {
        // Credited once Settled, now something else (staff marked it Invalid after marking it
        // Settled): the credit stands (it may be spent), staff decide; it is logged and audited.
        deps.log.error({ invoiceId: btcpayId, status: gf.status, additionalStatus: gf.additionalStatus }, 'payments: a credited invoice is no longer Settled');
        await writeAudit(trx, {
          actor: null,
          action: 'invoice.unsettled_after_credit',
          targetType: 'invoice',
          targetId: btcpayId,
          before: { status: current.status, creditedAt: current.credited_at },
          after: { status: gf.status, additionalStatus: gf.additionalStatus, userId: current.user_id, amountCents: current.amount_cents },
          at,
        });
      }
      outcome = changed ? 'status_changed' : 'no_change';
      if (gf.status === 'Settled') {
        const r = await postToLedger(trx, {
          walletId: current.wallet_id,
          amountCents: current.amount_cents,
          kind: 'invoice_credit',
          reference: btcpayId,
          idempotencyKey: `invoice:${btcpayId}`,
          at,
        });
        if (r.applied) {
          await repo.markCredited(trx, current.id, at);
          outcome = 'credited';
          balanceCents = (await walletsRepo.findWallet(trx, current.wallet_id))!.balance_cents;
          const owner = await trx.selectFrom('users').select('deleted_at').where('id', '=', current.user_id).executeTakeFirst();
          if (owner?.deleted_at) {
            // Paid after its owner deleted the account: the money is in a wallet nobody can reach
            // (the ledger keeps it), and no receipt goes. Staff see it, to refund it by hand.
            deps.log.error({ invoiceId: btcpayId, userId: current.user_id }, 'payments: an invoice settled after its owner deleted the account');
            await writeAudit(trx, {
              actor: null,
              action: 'invoice.credited_after_deletion',
              targetType: 'invoice',
              targetId: btcpayId,
              after: { userId: current.user_id, amountCents: current.amount_cents, deletedAt: owner.deleted_at },
              at,
            });
          }
        } else {
          outcome = current.credited_at ? 'already_credited' : 'credited';
          if (!current.credited_at) await repo.markCredited(trx, current.id, at);
        }
      }
    }
    if ('deliveryId' in source) {
      await repo.finishDelivery(trx, source.deliveryId, { status, outcome: outcome!, at });
    } else if (outcome! === 'status_changed' || outcome! === 'credited') {
      const id = `reconcile:${newId(16)}`;
      await repo.insertDelivery(trx, { originalDeliveryId: id, deliveryId: '-', invoiceId: current.id, type: 'Reconciled', body: null, at });
      await repo.finishDelivery(trx, id, { status, outcome: outcome!, at });
    }
  });
  outcome = outcome!;
  if (status === null) status = invoice.status === 'Creating' ? 'New' : invoice.status;
  // After commit: the event says what changed; the client reads the rest again.
  const type = 'deliveryId' in source ? source.type.toUpperCase() : outcome === 'status_changed' || outcome === 'credited' ? EVENT_OF_STATUS[status] : null;
  if (type && !stale) deps.hub.sendToUser(invoice.user_id, 'invoiceStatusUpdate', { type, invoiceId: btcpayId, status });
  if (outcome === 'credited' && balanceCents > 0) await sendReceipt(deps, invoice, balanceCents, at);
  return outcome;
}

async function sendReceipt(deps: AppDeps, invoice: repo.InvoiceRow, balanceCents: number, at: string): Promise<void> {
  const user = await deps.db.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', invoice.user_id).executeTakeFirst();
  if (!user || user.deleted_at) return;
  try {
    await deps.mailer.send(
      composeMail('topUpCredited', invoice.locale, user.email, {
        amount: formatUsd(invoice.amount_cents, invoice.locale),
        balance: formatUsd(balanceCents, invoice.locale),
        invoice: invoice.btcpay_id!,
        date: utcMoment(at, invoice.locale),
        link: pageLink(deps.config.publicUrl, invoice.locale, '/admin/dashboard/my-wallet'),
      }),
    );
  } catch (err) {
    // The money is in the wallet either way; the receipt is a courtesy.
    deps.log.error({ err, invoiceId: invoice.btcpay_id }, 'payments: could not e-mail the top-up receipt');
  }
}
