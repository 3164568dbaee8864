import type { AppDeps } from '../../core/deps.ts';
import { isStaff, type Actor } from '../../core/policy.ts';
import { writeAudit } from '../../core/audit.ts';
import { Forbidden, NotFound } from '../../core/errors.ts';
import { decimalToCents } from '../../../contract/amount.ts';
import type { SandboxAction, SandboxInvoice } from '../../../contract/api/payments.ts';
import { secondsToIso, type GreenfieldInvoice } from './provider.ts';
import type { SandboxProvider } from './sandbox.ts';
import { can } from './payments.policy.ts';
import * as repo from './payments.repository.ts';

// The sandbox's checkout page (when BTCPay is not configured): a test invoice as its payer sees it,
// and the payments its owner (or staff) simulate on it.

async function sandboxInvoiceFor(deps: AppDeps, sandboxOrNull: SandboxProvider | null, actor: Actor, invoiceId: string, fromLoopback: boolean) {
  if (!sandboxOrNull) throw new NotFound('payment.sandbox_inactive');
  const invoice = await repo.findByBtcpayId(deps.db, invoiceId);
  if (!invoice || !can(actor, 'view', { ownerId: invoice.user_id, fromLoopback })) throw new NotFound('payment.invoice_not_found');
  return { sandbox: sandboxOrNull, invoice };
}

async function sandboxDto(
  deps: AppDeps,
  sandbox: SandboxProvider,
  actor: Actor,
  invoice: repo.InvoiceRow,
  fromLoopback: boolean,
  gf?: GreenfieldInvoice,
): Promise<SandboxInvoice> {
  const g = gf ?? (await sandbox.getInvoice(invoice.btcpay_id!));
  if (!g) throw new NotFound('payment.invoice_not_found');
  return {
    invoiceId: g.id,
    amountCents: decimalToCents(g.amount) ?? invoice.amount_cents,
    status: g.status,
    additionalStatus: g.additionalStatus,
    expiresAt: secondsToIso(g.expirationTime),
    redirectUrl: (await sandbox.redirectUrl(g.id)) ?? `${deps.config.publicUrl}/admin/dashboard/my-wallet`,
    canSimulate: can(actor, 'simulate', { ownerId: invoice.user_id, fromLoopback }),
  };
}

export async function sandboxInvoice(
  deps: AppDeps,
  sandboxOrNull: SandboxProvider | null,
  actor: Actor,
  invoiceId: string,
  fromLoopback: boolean,
): Promise<SandboxInvoice> {
  const { sandbox, invoice } = await sandboxInvoiceFor(deps, sandboxOrNull, actor, invoiceId, fromLoopback);
  return sandboxDto(deps, sandbox, actor, invoice, fromLoopback);
}

export async function simulate(
  deps: AppDeps,
  sandboxOrNull: SandboxProvider | null,
  actor: Actor,
  invoiceId: string,
  action: SandboxAction,
  fromLoopback: boolean,
): Promise<SandboxInvoice> {
  const { sandbox, invoice } = await sandboxInvoiceFor(deps, sandboxOrNull, actor, invoiceId, fromLoopback);
  if (!can(actor, 'simulate', { ownerId: invoice.user_id, fromLoopback })) throw new Forbidden('payment.sandbox_forbidden');
  const gf = await sandbox.simulate(invoice.btcpay_id!, action);
  deps.log.warn({ invoiceId, action, by: actor?.id }, 'sandbox: payment simulated');
  // Staff may settle anyone's test invoice (their own too, from anywhere): test money, but an act of staff's all the same.
  if (actor && isStaff(actor)) {
    await writeAudit(deps.db, {
      actor,
      action: 'invoice.simulate',
      targetType: 'invoice',
      targetId: invoiceId,
      after: { action, userId: invoice.user_id, amountCents: invoice.amount_cents },
      at: deps.clock.now().toISOString(),
    });
  }
  return sandboxDto(deps, sandbox, actor, invoice, fromLoopback, gf);
}
