import type { Config } from '../../core/config.ts';
import { GreenfieldClient, type WebhookRequest } from './btcpay.client.ts';
import { GreenfieldError, WEBHOOK_EVENTS } from './provider.ts';

/** What our API key must be allowed on the store, and what each is for. */
export const NEEDED_PERMISSIONS = {
  'btcpay.store.cancreateinvoice': 'create invoices (top-ups)',
  'btcpay.store.canviewinvoices': 'read invoices (every webhook is checked against BTCPay, and reconciliation polls them)',
  'btcpay.store.webhooks.canmodifywebhooks': 'register our webhook (this command only)',
} as const;

/** Broader BTCPay permissions that include narrower ones. */
const IMPLIED_BY: Record<string, string[]> = {
  'btcpay.store.cancreateinvoice': ['btcpay.store.canmodifyinvoices', 'btcpay.store.canmodifystoresettings'],
  'btcpay.store.canviewinvoices': ['btcpay.store.canmodifyinvoices', 'btcpay.store.canmodifystoresettings', 'btcpay.store.canviewstoresettings'],
  'btcpay.store.webhooks.canmodifywebhooks': ['btcpay.store.canmodifystoresettings'],
};

/** Whether a key's permission list grants `permission` on `storeId` (a permission without a store suffix covers every store). */
export function grants(permissions: readonly string[], permission: string, storeId: string): boolean {
  const accepted = new Set([permission, ...(IMPLIED_BY[permission] ?? [])]);
  return permissions.some((p) => {
    if (p === 'unrestricted') return true;
    const [name, store] = p.split(':');
    return accepted.has(name) && (store === undefined || store === storeId);
  });
}

export interface ConnectResult {
  ok: boolean;
  lines: string[];
}

/**
 * `npm run btcpay:connect`: checks that BTCPay answers, that our API key has what we need on the
 * store, and registers (or updates) our webhook with the events we use, automatic redelivery and
 * our secret. Says in plain words what is missing; changes nothing on BTCPay until the key is right.
 */
export async function connectBtcpay(config: Pick<Config, 'btcpay' | 'publicUrl'>): Promise<ConnectResult> {
  const lines: string[] = [];
  const fail = (msg: string): ConnectResult => ({ ok: false, lines: [...lines, `✗ ${msg}`] });
  const { url, storeId, apiKey, webhookSecret } = config.btcpay;
  if (!url || !storeId || !apiKey) {
    return fail(
      'BTCPay Server is not configured: set BTCPAY_URL, BTCPAY_STORE_ID, BTCPAY_API_KEY and BTCPAY_WEBHOOK_SECRET (see README, "Taking Bitcoin"). Until then the sandbox takes pretend payments.',
    );
  }
  const client = new GreenfieldClient({ url, storeId, apiKey });
  try {
    const { synchronized } = await client.health();
    lines.push(`✓ ${url} answers${synchronized ? '' : ' (still synchronizing its nodes: payments will be seen once it is done)'}`);
  } catch (err) {
    return fail(`cannot reach BTCPay Server at ${url}: ${(err as Error).message}`);
  }
  let permissions: string[];
  try {
    permissions = (await client.apiKeyInfo()).permissions;
    const info = await client.serverInfo();
    lines.push(`✓ the API key is accepted${info.version ? ` (BTCPay Server ${info.version})` : ''}`);
  } catch (err) {
    if (err instanceof GreenfieldError && err.kind === 'auth') return fail(`BTCPay refused the API key (BTCPAY_API_KEY): ${err.message}`);
    return fail(`could not read the API key's permissions: ${(err as Error).message}`);
  }
  const missing = Object.entries(NEEDED_PERMISSIONS).filter(([p]) => !grants(permissions, p, storeId));
  if (missing.length) {
    return fail(
      [
        `the API key lacks ${missing.length === 1 ? 'a permission' : 'permissions'} on store ${storeId}:`,
        ...missing.map(([p, why]) => `    ${p} — to ${why}`),
        '  Create a key in BTCPay (Account → API Keys → Generate Key) with these permissions for this store, put it in BTCPAY_API_KEY, and run this again.',
      ].join('\n'),
    );
  }
  lines.push(`✓ the API key may create and read invoices and manage webhooks on store ${storeId}`);
  const hookUrl = `${config.publicUrl}/api/webhooks/btcpay`;
  if (/^https?:\/\/(localhost|127\.|\[::1\])/.test(config.publicUrl)) {
    lines.push(`! PUBLIC_URL is ${config.publicUrl}: BTCPay Server must be able to reach ${hookUrl}; set PUBLIC_URL to the address it can reach`);
  }
  const body: WebhookRequest = {
    url: hookUrl,
    enabled: true,
    automaticRedelivery: true,
    authorizedEvents: { everything: false, specificEvents: [...WEBHOOK_EVENTS] },
    secret: webhookSecret,
  };
  try {
    const existing = (await client.listWebhooks()).find((w) => w.url === hookUrl);
    if (existing) {
      await client.updateWebhook(existing.id, body);
      lines.push(`✓ webhook ${existing.id} to ${hookUrl} updated (events, redelivery, secret)`);
    } else {
      const created = await client.createWebhook(body);
      lines.push(`✓ webhook ${created.id} to ${hookUrl} registered for ${WEBHOOK_EVENTS.join(', ')}`);
    }
  } catch (err) {
    return fail(`could not register the webhook: ${(err as Error).message}`);
  }
  lines.push('Done: invoices are created in BTCPay and settled payments credit wallets once each.');
  return { ok: true, lines };
}
