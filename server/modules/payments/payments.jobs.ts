import type { AppDeps } from '../../core/deps.ts';
import type { JobReport } from '../../core/report.ts';

/** Cron job reconcile-invoices (every minute): stored deliveries not yet processed, then open invoices (and Expired/Invalid ones never credited, which staff may mark Settled) re-read from the payment server, so a lost webhook never loses money. */
export function reconcileInvoices(deps: AppDeps): Promise<JobReport> {
  return deps.services.payments.reconcile({ expired: false });
}

/** Cron job expire-invoices: open invoices expired more than a day ago (BTCPay no longer watches them) asked one last time and closed; Expired/Invalid ones never credited asked in turns for 30 days after expiry, in case staff mark them Settled late. */
export function expireInvoices(deps: AppDeps): Promise<JobReport> {
  return deps.services.payments.reconcile({ expired: true });
}
