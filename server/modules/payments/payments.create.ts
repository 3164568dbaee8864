import type { AppDeps } from '../../core/deps.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { AppError, Conflict, Invalid, NotFound, ruleWords } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { WindowLimiter } from '../../core/ratelimit.ts';
import { centsToDecimal, decimalToCents, topUpCents } from '../../../contract/amount.ts';
import * as walletsRepo from '../wallets/wallets.repository.ts';
import { GreenfieldRefusal } from './btcpay.client.ts';
import { GreenfieldError, secondsToIso, type GreenfieldInvoice, type PaymentProvider } from './provider.ts';
import { pageLink, type MailLocale } from '../../core/mail-templates.ts';
import * as repo from './payments.repository.ts';

// Creating an invoice: the intent row first (under the open-invoice limit), then BTCPay is asked,
// then the row completed with BTCPay's answer, or removed when BTCPay made nothing.

/** PRODUCT §6: at most this many unpaid invoices per user. */
export const MAX_OPEN_INVOICES = 5;
export const INVOICE_MINUTES = 30;

/** Our page languages as BTCPay's checkout names them (its wwwroot/locales/checkout files). */
const CHECKOUT_LANGUAGE: Record<MailLocale, string> = { en: 'en', es: 'es-ES', pt: 'pt-BR' };

/** A provider asks to top up their USD wallet: the invoice and the BTCPay checkout page to pay it on. */
export async function createInvoice(
  deps: AppDeps,
  p: { provider: PaymentProvider; limiter: WindowLimiter },
  actor: SessionUser,
  input: { amount: number | string; locale: MailLocale },
): Promise<{ invoiceId: string; checkoutLink: string }> {
  const cents = topUpCents(input.amount);
  if (cents === null) throw new Invalid('amount', 'payment.amount_invalid');
  p.limiter.hit([`user:${actor.id}`]);
  const wallet = await walletsRepo.findWalletByType(deps.db, actor.id, 'USD');
  if (!wallet) throw new NotFound('wallet.not_found');
  const orderId = newId();
  const at = deps.clock.now().toISOString();
  await transactionAs(deps.db, actor, async (trx) => {
    // suspended or signed out while this waited: 401, no invoice
    // Counted and inserted in one write transaction: two tabs cannot both take the fifth place.
    if ((await repo.countOpen(trx, actor.id, at)) >= MAX_OPEN_INVOICES) throw new Conflict('payment.too_many_open_invoices', { max: MAX_OPEN_INVOICES });
    await repo.insertInvoice(trx, {
      id: orderId,
      btcpay_id: null,
      provider: p.provider.mode,
      user_id: actor.id,
      wallet_id: wallet.id,
      amount_cents: cents,
      status: 'Creating',
      additional_status: 'None',
      checkout_link: null,
      locale: input.locale,
      created_at: at,
      expires_at: new Date(deps.clock.now().getTime() + INVOICE_MINUTES * 60_000).toISOString(),
      checked_at: null,
      credited_at: null,
      updated_at: at,
    });
  });
  let gf: GreenfieldInvoice;
  try {
    gf = await p.provider.createInvoice({
      amount: centsToDecimal(cents),
      currency: 'USD',
      metadata: { orderId, userId: actor.id, walletId: wallet.id },
      checkout: {
        speedPolicy: 'MediumSpeed',
        expirationMinutes: INVOICE_MINUTES,
        // The amount in full: a store-wide tolerance set in BTCPay would otherwise settle an
        // underpaid invoice, and we credit the invoice's amount.
        paymentTolerance: 0,
        // BTCPay's checkout page in the payer's language, and back to the wallet in it.
        defaultLanguage: CHECKOUT_LANGUAGE[input.locale],
        redirectURL: pageLink(deps.config.publicUrl, input.locale, '/admin/dashboard/my-wallet'),
      },
    });
  } catch (err) {
    // Nothing half-created: BTCPay made no invoice (or said so), so the intent goes.
    await repo.deleteCreating(deps.db, orderId);
    if (err instanceof GreenfieldError && (err.kind === 'validation' || err.kind === 'business')) {
      // BTCPay's words are English prose: logged, and the provider reads one of our reasons, worded
      // in their language (errors rule.*): the amount, which they can change, or anything else,
      // which is the store's setup (staff's to fix, from this log line).
      const amount = err instanceof GreenfieldRefusal && err.fields.some((f) => f.toLowerCase() === 'amount');
      const said = { orderId, userId: actor.id, amountCents: cents, status: err.status, btcpay: err.message };
      if (amount) deps.log.warn(said, 'payments: BTCPay refused the amount of an invoice');
      else deps.log.error(said, 'payments: BTCPay refused to create an invoice');
      const rule = amount ? 'payment_amount' : 'payment_store';
      throw new AppError(400, 'payment.server_rejected', { rule, reason: ruleWords({ rule }) });
    }
    deps.log.error({ err, orderId }, 'payments: could not create an invoice');
    throw new AppError(502, 'payment.server_unavailable');
  }
  if (decimalToCents(gf.amount) !== cents || gf.currency.toUpperCase() !== 'USD') {
    deps.log.error({ orderId, invoiceId: gf.id, amount: gf.amount, currency: gf.currency }, 'payments: BTCPay created an invoice for another amount');
    throw new AppError(502, 'payment.server_unavailable');
  }
  await repo.completeCreation(deps.db, orderId, {
    btcpayId: gf.id,
    status: gf.status,
    additionalStatus: gf.additionalStatus,
    checkoutLink: gf.checkoutLink,
    expiresAt: secondsToIso(gf.expirationTime),
    at: deps.clock.now().toISOString(),
  });
  return { invoiceId: gf.id, checkoutLink: gf.checkoutLink };
}
