import type { AppDeps } from '../../core/deps.ts';
import type { Said } from '../../../contract/api/common.ts';
import type { PaymentServerHealth } from '../../../contract/api/payments.ts';
import { GreenfieldError, type PaymentProvider } from './provider.ts';
import * as repo from './payments.repository.ts';

/**
 * The payment server screen's and the health check's view of BTCPay: reachable, synchronized,
 * our store's webhook registered; each problem in English (logs) and as a code.
 */
export async function paymentServerHealth(
  deps: AppDeps,
  p: { provider: PaymentProvider; sandbox: boolean; storeId: string; webhookUrl: string },
): Promise<PaymentServerHealth> {
  const now = deps.clock.now().toISOString();
  const [lastWebhookAt, openInvoices] = await Promise.all([repo.lastWebhookAt(deps.db), repo.countOpenAll(deps.db, now)]);
  const h: PaymentServerHealth = {
    mode: p.provider.mode,
    reachable: false,
    synchronized: false,
    version: null,
    storeId: p.storeId,
    webhookRegistered: false,
    lastWebhookAt,
    openInvoices,
    checkedAt: now,
    message: 'ok',
    problems: [],
  };
  // Each problem in English words (logs) and as a code the payment server page words in its language.
  const words: string[] = [];
  const problem = (text: string, said: Said) => {
    words.push(text);
    h.problems.push(said);
  };
  try {
    h.synchronized = (await p.provider.health()).synchronized;
    h.reachable = true;
    if (!h.synchronized) problem('BTCPay Server is still synchronizing its nodes: payments are seen late', { code: 'payment.syncing' });
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    h.message = `Payment server unreachable: ${detail}`;
    h.problems.push({ code: 'payment.unreachable', detail });
    return h;
  }
  try {
    h.version = (await p.provider.serverInfo()).version;
    const hooks = await p.provider.listWebhooks();
    h.webhookRegistered = hooks.some((w) => w.enabled && w.url === p.webhookUrl);
    if (!h.webhookRegistered) {
      problem(`no enabled webhook to ${p.webhookUrl} on the store: run npm run btcpay:connect`, {
        code: 'payment.no_webhook_to',
        params: { url: p.webhookUrl },
      });
    }
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    if (err instanceof GreenfieldError && err.kind === 'auth') problem(`BTCPay refused our API key: ${detail}`, { code: 'payment.key_refused', detail });
    else problem(`could not read the store: ${detail}`, { code: 'payment.store_unreadable', detail });
  }
  if (p.sandbox) {
    words.unshift('Sandbox mode: BTCPay Server is not configured, no real payments are taken');
    h.problems.unshift({ code: 'payment.sandbox' });
  }
  h.message = words.length ? words.join('; ') : 'ok';
  return h;
}
