import type { AppDeps } from '../../core/deps.ts';

/** Cron job reconcile-invoices (every minute): stored deliveries not yet processed, then open invoices re-read from the payment server, so a lost webhook never loses money. */
export function reconcileInvoices(deps: AppDeps): Promise<string> {
  return deps.services.payments.reconcile({ expired: false });
}

/** Cron job expire-invoices: invoices expired more than a day ago (BTCPay no longer watches them) asked one last time and closed. */
export function expireInvoices(deps: AppDeps): Promise<string> {
  return deps.services.payments.reconcile({ expired: true });
}
