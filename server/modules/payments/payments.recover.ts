import type { AppDeps } from '../../core/deps.ts';
import { writeAudit } from '../../core/audit.ts';
import { AppError } from '../../core/errors.ts';
import { topUpCents } from '../../../contract/amount.ts';
import * as walletsRepo from '../wallets/wallets.repository.ts';
import { secondsToIso, type GreenfieldInvoice, type PaymentProvider } from './provider.ts';
import * as repo from './payments.repository.ts';

/**
 * A signed webhook of our store for an invoice the database does not have: one created (and
 * perhaps paid) after the backup that was restored, which no reconciliation can find since it
 * only asks about invoices it knows. BTCPay is asked for the invoice; when the metadata we gave it
 * (orderId, userId, walletId) names an account not erased and that account's USD wallet, for a
 * top-up amount in USD, the invoice row is put back and the delivery processed as any other (the
 * ledger key `invoice:<BTCPay id>` keeps the credit to one). Otherwise a paid one is written to the
 * audit log, the delivery with it, for staff to credit by hand. BTCPay unreachable: answered 502,
 * so that BTCPay delivers it again.
 */
export async function recoverUnknownInvoice(
  deps: AppDeps,
  provider: PaymentProvider,
  btcpayId: string,
  delivery: { type: string; originalDeliveryId: string; body: string },
  log: AppDeps['log'],
): Promise<repo.InvoiceRow | undefined> {
  let gf: GreenfieldInvoice | null;
  try {
    gf = await provider.getInvoice(btcpayId);
  } catch (err) {
    log.warn({ err }, 'payments: webhook for an invoice we do not know, and BTCPay could not be asked about it; answered 502 for a redelivery');
    throw new AppError(502, 'payment.server_unavailable');
  }
  if (!gf) {
    log.warn('payments: webhook for an invoice neither we nor BTCPay know, ignored');
    return undefined;
  }
  const at = deps.clock.now().toISOString();
  const meta = gf.metadata;
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 100 ? v : null);
  const [orderId, userId, walletId] = [text(meta.orderId), text(meta.userId), text(meta.walletId)];
  const cents = gf.currency.toUpperCase() === 'USD' ? topUpCents(gf.amount) : null;
  const payer = userId ? await repo.findPayer(deps.db, userId) : undefined;
  const wallet = payer && !payer.deleted_at ? await walletsRepo.findWalletByType(deps.db, payer.id, 'USD') : undefined;
  let refusal: string | null = null;
  if (!orderId || !userId || !walletId) refusal = 'no_metadata_of_ours';
  else if (cents === null) refusal = 'amount_refused';
  else if (!payer) refusal = 'user_unknown';
  else if (payer.deleted_at) refusal = 'user_erased';
  else if (wallet?.id !== walletId) refusal = 'wallet_mismatch';
  if (!refusal && payer && cents !== null && orderId) {
    const recovered = await deps.db.transaction().execute(async (trx) => {
      const inserted = await repo.insertRecovered(trx, {
        id: orderId,
        btcpay_id: btcpayId,
        provider: provider.mode,
        user_id: payer.id,
        wallet_id: walletId!,
        amount_cents: cents,
        // New until the delivery is processed: apply() takes it to what BTCPay says, crediting it when Settled.
        status: 'New',
        additional_status: 'None',
        checkout_link: gf.checkoutLink,
        locale: payer.locale,
        created_at: secondsToIso(gf.createdTime),
        expires_at: secondsToIso(gf.expirationTime),
        checked_at: null,
        credited_at: null,
        updated_at: at,
      });
      if (inserted) {
        await writeAudit(trx, {
          actor: null,
          action: 'invoice.recovered',
          targetType: 'invoice',
          targetId: btcpayId,
          after: { orderId, userId: payer.id, walletId, amountCents: cents, status: gf.status, type: delivery.type },
          at,
        });
      }
      return repo.findByBtcpayId(trx, btcpayId);
    });
    if (recovered) {
      log.warn(
        { orderId, userId: payer.id, amountCents: cents },
        'payments: webhook for an invoice we did not know (made after the restored backup); put back from BTCPay',
      );
      return recovered;
    }
    refusal = 'order_taken'; // our order id on another BTCPay invoice
  }
  if (gf.status !== 'Settled') {
    log.warn({ reason: refusal, status: gf.status }, 'payments: webhook for an invoice we do not know and cannot put back, unpaid; ignored');
    return undefined;
  }
  log.error(
    { reason: refusal, amount: gf.amount, currency: gf.currency },
    'payments: a settled invoice we do not know and cannot put back: in the audit log for staff to credit',
  );
  if (!(await repo.unknownPaidNoted(deps.db, btcpayId))) {
    await writeAudit(deps.db, {
      actor: null,
      action: 'invoice.unknown_paid',
      targetType: 'invoice',
      targetId: btcpayId,
      after: {
        reason: refusal,
        amount: gf.amount,
        currency: gf.currency,
        status: gf.status,
        additionalStatus: gf.additionalStatus,
        metadata: meta,
        delivery,
      },
      at,
    });
  }
  return undefined;
}
