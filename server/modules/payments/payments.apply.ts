import type { AppDeps } from '../../core/deps.ts';
import { writeAudit } from '../../core/audit.ts';
import { newId } from '../../core/ids.ts';
import { formatUsd, decimalToCents } from '../../../contract/amount.ts';
import type { InvoiceStatus } from '../../../contract/api/payments.ts';
import { composeMail, pageLink, utcMoment } from '../../core/mail-templates.ts';
import { postToLedger } from '../wallets/ledger.service.ts';
import * as walletsRepo from '../wallets/wallets.repository.ts';
import type { GreenfieldInvoice, PaymentProvider } from './provider.ts';
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

/** A read of the invoice from BTCPay that failed (unreachable, or an error answer): `cause` says how. */
export class ReadFailure extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** Reads the invoice from BTCPay; a failure is a ReadFailure, told apart from our own (database) errors. */
export async function readInvoice(provider: PaymentProvider, btcpayId: string): Promise<GreenfieldInvoice | null> {
  try {
    return await provider.getInvoice(btcpayId);
  } catch (err) {
    throw new ReadFailure(err);
  }
}

/** What applyInvoice may call back: reading BTCPay again, and running the receipt outside the caller's queue. */
export interface ApplyHooks {
  /** Reads the invoice again when our row moved on while BTCPay was being read (once; without it such a read is skipped). */
  reread?: () => Promise<GreenfieldInvoice | null>;
  /** Takes the receipt's sending, which the caller does not wait for (without it, it is awaited). */
  background?: (task: Promise<void>) => void;
}

/** Whether the row changed between the read that `noted` comes from and `current` (a status, a credit, any write with a new time). */
const movedOn = (noted: repo.InvoiceRow, current: repo.InvoiceRow) =>
  noted.status !== current.status ||
  noted.additional_status !== current.additional_status ||
  noted.credited_at !== current.credited_at ||
  noted.updated_at !== current.updated_at;

/**
 * Applies what BTCPay says of an invoice, in one transaction: its status, and when Settled the
 * credit (ledger key `invoice:<BTCPay id>`: once, whoever gets there first). Then tells the
 * owner's sockets, and e-mails the receipt when this call credited it (after the commit, through
 * hooks.background: a hanging mail relay holds no other credit).
 *
 * `invoice` is our row as it was before BTCPay was read (a compare-and-set): when it has moved on
 * since (another delivery, a reconciliation, another process applied a read), this read may be
 * older than what was applied, so it is taken again (hooks.reread) and applied to the row as it
 * is now; moved on once more, or with nothing to read again with, it is not applied.
 */
export async function applyInvoice(
  deps: AppDeps,
  invoice: repo.InvoiceRow,
  gf: GreenfieldInvoice | null,
  source: ApplySource,
  hooks: ApplyHooks = {},
): Promise<Outcome> {
  const at = deps.clock.now().toISOString();
  const btcpayId = invoice.btcpay_id!;
  let outcome: Outcome;
  let status: InvoiceStatus | null = gf?.status ?? null;
  let balanceCents = 0;
  let stale = false;
  let readAgain = false;
  // What our record says, for an event about a read that was not applied (Creating reads as New).
  const stored = (row: repo.InvoiceRow): InvoiceStatus | null => (row.status === 'Creating' ? null : row.status);
  await deps.db.transaction().execute(async (trx) => {
    const current = (await repo.findInvoice(trx, invoice.id))!;
    if (gf && movedOn(invoice, current) && hooks.reread) {
      readAgain = true;
      return;
    }
    if (!gf) {
      outcome = 'unknown_at_server';
      status = stored(current);
      await repo.noteChecked(trx, current.id, at);
    } else if (
      gf.id !== btcpayId ||
      decimalToCents(gf.amount) !== current.amount_cents ||
      gf.currency.toUpperCase() !== 'USD' ||
      (typeof gf.metadata.orderId === 'string' && gf.metadata.orderId !== current.id)
    ) {
      outcome = 'refused_mismatch';
      status = stored(current);
      await repo.noteChecked(trx, current.id, at);
      deps.log.error(
        { invoiceId: btcpayId, amount: gf.amount, currency: gf.currency },
        'payments: BTCPay describes this invoice differently from ours; nothing applied',
      );
    } else if (movedOn(invoice, current) || ((current.status === 'Settled' || current.credited_at) && gf.status !== 'Settled' && gf.status !== 'Invalid')) {
      // The row moved on while BTCPay was read, twice: what was applied meanwhile may be newer
      // than this read, and the next reconciliation reads it again. And BTCPay never takes a
      // Settled invoice back to New, Processing or Expired (only staff's Invalid mark moves it
      // on): such an answer was read before the settlement and arrived after it. Not applied.
      outcome = 'no_change';
      stale = true;
      await repo.noteChecked(trx, current.id, at);
      status = stored(current);
    } else {
      const changed = current.status !== gf.status || current.additional_status !== gf.additionalStatus;
      if (changed) await repo.setStatus(trx, current.id, { status: gf.status, additionalStatus: gf.additionalStatus, at });
      else await repo.noteChecked(trx, current.id, at);
      if (changed && gf.status === 'Expired' && gf.additionalStatus === 'PaidLate' && !current.credited_at) {
        // Paid after it expired: BTCPay keeps the money and the invoice stays Expired until staff
        // mark it (INTEGRATIONS.md); nothing is credited. Staff see it, to credit or refund it.
        deps.log.warn({ invoiceId: btcpayId, userId: current.user_id }, 'payments: a payment arrived after the invoice expired; staff decide');
        await writeAudit(trx, {
          actor: null,
          action: 'invoice.paid_late',
          targetType: 'invoice',
          targetId: btcpayId,
          before: { status: current.status, additionalStatus: current.additional_status },
          after: { status: gf.status, additionalStatus: gf.additionalStatus, userId: current.user_id, amountCents: current.amount_cents },
          at,
        });
      }
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
  if (readAgain) {
    // Our row moved on while BTCPay was read: read it again, for the row as it is now.
    const now = (await repo.findInvoice(deps.db, invoice.id))!;
    return applyInvoice(deps, now, await hooks.reread!(), source, { background: hooks.background });
  }
  outcome = outcome!;
  if (status === null) status = invoice.status === 'Creating' ? 'New' : invoice.status;
  // After commit: the event says what changed; the client reads the rest again.
  const type = 'deliveryId' in source ? source.type.toUpperCase() : outcome === 'status_changed' || outcome === 'credited' ? EVENT_OF_STATUS[status] : null;
  if (type && !stale) deps.hub.sendToUser(invoice.user_id, 'invoiceStatusUpdate', { type, invoiceId: btcpayId, status });
  if (outcome === 'credited' && balanceCents > 0) {
    const receipt = sendReceipt(deps, invoice, balanceCents, at).catch((err: unknown) =>
      deps.log.error({ err, invoiceId: btcpayId }, 'payments: could not e-mail the top-up receipt'),
    );
    if (hooks.background) hooks.background(receipt);
    else await receipt;
  }
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
