import type { AppDeps } from '../../core/deps.ts';
import { jobReport, type JobReport } from '../../core/report.ts';
import { decimalToCents } from '../../../contract/amount.ts';
import { GreenfieldError, secondsToIso, type GreenfieldInvoice, type PaymentProvider } from './provider.ts';
import { applyInvoice, readInvoice, ReadFailure } from './payments.apply.ts';
import * as repo from './payments.repository.ts';

// The reconcile-invoices and expire-invoices jobs: invoices are read again from BTCPay, so a lost
// webhook never loses money, and intents a crash left half-made are found by their order id.

/** How long after its expiry an invoice is still watched every minute (BTCPay keeps monitoring for late payments). */
const RECONCILE_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * How long after its expiry an Expired/Invalid invoice never credited is still asked about by
 * expire-invoices, in case staff mark it Settled days later and that one webhook is lost. Past this
 * it is no longer asked: a marking that late is for staff to reconcile by hand.
 */
const LATE_MARK_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
/** An intent whose answer never came (a crash while asking BTCPay) is looked up by order id after this, and dropped after ten minutes. */
const CREATING_GRACE_MS = 2 * 60 * 1000;
const CREATING_GIVE_UP_MS = 10 * 60 * 1000;

/**
 * Re-reads open invoices (and settled ones not yet credited) and applies what BTCPay says; finds
 * invoices created just before a crash. Expired and Invalid invoices never credited are re-read
 * too: staff may mark one Settled, and if that single webhook is lost only this finds it.
 */
export async function reconcileInvoices(
  deps: AppDeps,
  provider: PaymentProvider,
  opts: { expired: boolean },
  resumePending: () => Promise<number>,
  background: (task: Promise<void>) => void,
): Promise<JobReport> {
  const nowMs = deps.clock.now().getTime();
  const pending = opts.expired ? 0 : await resumePending();
  const windowStart = new Date(nowMs - RECONCILE_WINDOW_MS).toISOString();
  const rows = await repo.invoicesToReconcile(deps.db, {
    // reconcile-invoices: not yet expired, or expired within the day BTCPay keeps watching;
    // expire-invoices: the older open ones, asked one last time, and the older Expired/Invalid
    // ones for LATE_MARK_WINDOW_MS, 200 a run least recently checked first (every read records
    // checked_at), so they take turns instead of all being asked every run.
    expiresAfter: opts.expired ? new Date(0).toISOString() : windowStart,
    markableAfter: opts.expired ? new Date(nowMs - LATE_MARK_WINDOW_MS).toISOString() : windowStart,
    expiresBefore: opts.expired ? windowStart : null,
    limit: 200,
  });
  const counts: Record<string, number> = {};
  let unreachable = 0;
  let unreachableInARow = 0;
  for (const inv of rows) {
    const read = () => readInvoice(provider, inv.btcpay_id!);
    try {
      const gf = await read();
      unreachableInARow = 0;
      if (!gf && opts.expired && inv.status !== 'Expired' && inv.status !== 'Invalid') {
        // BTCPay forgot it (a wiped store) long after it expired: close it here. One closed
        // already keeps its status (apply() only records the check).
        await repo.setStatus(deps.db, inv.id, { status: 'Expired', additionalStatus: inv.additional_status, at: deps.clock.now().toISOString() });
        counts.closed = (counts.closed ?? 0) + 1;
        continue;
      }
      const outcome = await applyInvoice(deps, inv, gf, { reconcile: true }, { reread: read, background });
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    } catch (err) {
      if (!(err instanceof ReadFailure)) throw err;
      unreachable++;
      deps.log.warn({ err: err.cause, invoiceId: inv.btcpay_id }, 'payments: reconciliation could not read an invoice');
      // Checked all the same: an invoice BTCPay fails on (a 500 for it alone) goes to the back of
      // the least-recently-checked order instead of being first again every run.
      await repo.noteChecked(deps.db, inv.id, deps.clock.now().toISOString());
      // BTCPay down (no connection, no answer), three times in a row: try again next minute. An
      // error it answered about one invoice says nothing of the others.
      if (answered(err.cause)) unreachableInARow = 0;
      else if (++unreachableInARow >= 3) break;
    }
  }
  const adopted = opts.expired ? 0 : await recoverCreating(deps, provider, nowMs, background);
  const parts = [`${rows.length} invoice(s) checked`, ...Object.entries(counts).map(([k, n]) => `${n} ${k}`)];
  const said = Object.entries(counts).map(([k, n]) => ({ code: `cron.invoices.${k}`, params: { count: n } }));
  if (pending) parts.push(`${pending} stored delivery(ies) processed`);
  if (pending) said.push({ code: 'cron.deliveries_processed', params: { count: pending } });
  if (adopted) parts.push(`${adopted} interrupted creation(s) recovered`);
  if (adopted) said.push({ code: 'cron.creations_recovered', params: { count: adopted } });
  if (unreachable) parts.push(`payment server unreachable for ${unreachable}`);
  if (unreachable) said.push({ code: 'cron.invoices_unreachable', params: { count: unreachable } });
  return jobReport(parts.join(', '), 'cron.invoices_checked', { count: rows.length }, said);
}

/** Whether BTCPay answered the failed read (an error status about that invoice), rather than not at all (no connection, a timeout). */
const answered = (err: unknown) => err instanceof GreenfieldError && err.status !== null;

/** Intents left 'Creating' by a crash: BTCPay is asked for invoices carrying the order id; found → kept, not found after ten minutes → dropped. */
async function recoverCreating(deps: AppDeps, provider: PaymentProvider, nowMs: number, background: (task: Promise<void>) => void): Promise<number> {
  let adopted = 0;
  for (const inv of await repo.staleCreating(deps.db, new Date(nowMs - CREATING_GRACE_MS).toISOString())) {
    let found: GreenfieldInvoice[];
    try {
      found = await provider.findInvoicesByOrderId(inv.id);
    } catch {
      return adopted;
    }
    const gf = found.find((g) => decimalToCents(g.amount) === inv.amount_cents);
    if (gf && (await repo.adoptCreating(deps.db, inv.id, gf.id, deps.clock.now().toISOString()))) {
      await repo.completeCreation(deps.db, inv.id, {
        btcpayId: gf.id,
        status: gf.status,
        additionalStatus: gf.additionalStatus,
        checkoutLink: gf.checkoutLink,
        expiresAt: secondsToIso(gf.expirationTime),
        at: deps.clock.now().toISOString(),
      });
      await applyInvoice(deps, (await repo.findInvoice(deps.db, inv.id))!, gf, { reconcile: true }, { background });
      adopted++;
    } else if (!gf && Date.parse(inv.created_at) <= nowMs - CREATING_GIVE_UP_MS) {
      await repo.deleteCreating(deps.db, inv.id);
    }
  }
  return adopted;
}
