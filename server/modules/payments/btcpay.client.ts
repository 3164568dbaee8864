import {
  GreenfieldError,
  isInvoiceStatus,
  type CreateInvoiceRequest,
  type GreenfieldInvoice,
  type GreenfieldWebhook,
  type PaymentProvider,
} from './provider.ts';

export interface GreenfieldConfig {
  url: string;
  storeId: string;
  apiKey: string;
  /** Per request; BTCPay answers in milliseconds when well. */
  timeoutMs?: number;
}

/** The API key as BTCPay describes it (GET /api/v1/api-keys/current). */
export interface ApiKeyInfo {
  label: string | null;
  permissions: string[];
}

export interface WebhookRequest {
  url: string;
  enabled: boolean;
  automaticRedelivery: boolean;
  authorizedEvents: { everything: false; specificEvents: string[] };
  secret: string;
}

/**
 * BTCPay Server's Greenfield API, the subset we use (INTEGRATIONS.md): `Authorization: token <key>`,
 * JSON both ways, errors as 422 `[{path, message}]` or `{code, message}`. Every failure becomes a
 * GreenfieldError saying whether the server could not be reached (network, timeout, 5xx) or
 * refused (validation, business rule, key, not found).
 */
export class GreenfieldClient implements PaymentProvider {
  readonly mode = 'btcpay' as const;
  private readonly cfg: Required<GreenfieldConfig>;

  constructor(cfg: GreenfieldConfig) {
    this.cfg = { timeoutMs: 10_000, ...cfg, url: cfg.url.replace(/\/+$/, '') };
  }

  get storeId(): string {
    return this.cfg.storeId;
  }

  private store(path = ''): string {
    return `/api/v1/stores/${encodeURIComponent(this.cfg.storeId)}${path}`;
  }

  private async call<T>(method: string, path: string, body?: unknown, auth = true): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.cfg.url + path, {
        method,
        headers: {
          accept: 'application/json',
          ...(auth ? { authorization: `token ${this.cfg.apiKey}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.cfg.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const why = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${this.cfg.timeoutMs} ms` : 'could not connect';
      throw new GreenfieldError('unreachable', `BTCPay Server ${why}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new GreenfieldError('unreachable', 'BTCPay Server closed the connection', res.status);
    }
    if (res.ok) {
      try {
        return (text === '' ? null : JSON.parse(text)) as T;
      } catch {
        throw new GreenfieldError('unreachable', 'BTCPay Server answered something that is not JSON', res.status);
      }
    }
    throw toError(res.status, text);
  }

  async createInvoice(req: CreateInvoiceRequest): Promise<GreenfieldInvoice> {
    return toInvoice(await this.call('POST', this.store('/invoices'), req));
  }

  async getInvoice(invoiceId: string): Promise<GreenfieldInvoice | null> {
    try {
      return toInvoice(await this.call('GET', this.store(`/invoices/${encodeURIComponent(invoiceId)}`)));
    } catch (err) {
      if (err instanceof GreenfieldError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  async findInvoicesByOrderId(orderId: string): Promise<GreenfieldInvoice[]> {
    const list = await this.call<unknown>('GET', this.store(`/invoices?orderId=${encodeURIComponent(orderId)}`));
    if (!Array.isArray(list)) throw new GreenfieldError('unreachable', 'BTCPay Server answered an invoice list that is not a list');
    return list.map(toInvoice);
  }

  async health(): Promise<{ synchronized: boolean }> {
    const h = await this.call<{ synchronized?: unknown }>('GET', '/api/v1/health', undefined, false);
    return { synchronized: h?.synchronized === true };
  }

  async serverInfo(): Promise<{ version: string | null }> {
    const info = await this.call<{ version?: unknown }>('GET', '/api/v1/server/info');
    return { version: typeof info?.version === 'string' ? info.version : null };
  }

  async listWebhooks(): Promise<GreenfieldWebhook[]> {
    const list = await this.call<unknown>('GET', this.store('/webhooks'));
    return Array.isArray(list) ? (list as GreenfieldWebhook[]) : [];
  }

  async createWebhook(w: WebhookRequest): Promise<GreenfieldWebhook> {
    return this.call('POST', this.store('/webhooks'), w);
  }

  async updateWebhook(id: string, w: WebhookRequest): Promise<GreenfieldWebhook> {
    return this.call('PUT', this.store(`/webhooks/${encodeURIComponent(id)}`), w);
  }

  async apiKeyInfo(): Promise<ApiKeyInfo> {
    const k = await this.call<{ label?: unknown; permissions?: unknown }>('GET', '/api/v1/api-keys/current');
    return {
      label: typeof k?.label === 'string' ? k.label : null,
      permissions: Array.isArray(k?.permissions) ? k.permissions.filter((p): p is string => typeof p === 'string') : [],
    };
  }
}

/**
 * A 422: BTCPay refused the request's values. `fields` are the paths it named (`amount`,
 * `checkout.expirationMinutes`), which a caller may act on; its words (`message`) are English
 * prose of a third party, for the log, never for a user's page.
 */
export class GreenfieldRefusal extends GreenfieldError {
  readonly fields: readonly string[];
  constructor(message: string, status: number, fields: readonly string[]) {
    super('validation', message, status);
    this.fields = fields;
  }
}

function toError(status: number, text: string): GreenfieldError {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the status says enough
  }
  if (status >= 500 || status === 408 || status === 429) return new GreenfieldError('unreachable', `BTCPay Server answered ${status}`, status);
  if (status === 422 && Array.isArray(body)) {
    const msgs = body
      .map((e: { path?: unknown; message?: unknown }) => [e?.path, e?.message].filter((x) => typeof x === 'string' && x).join(': '))
      .filter(Boolean);
    const fields = body.map((e: { path?: unknown }) => e?.path).filter((p): p is string => typeof p === 'string' && p !== '');
    return new GreenfieldRefusal(msgs.join('; ').slice(0, 300) || 'invalid request', status, fields);
  }
  const message =
    body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message.slice(0, 300)
      : `HTTP ${status}`;
  if (status === 401 || status === 403) return new GreenfieldError('auth', message, status);
  if (status === 404) return new GreenfieldError('not_found', message, status);
  return new GreenfieldError('business', message, status);
}

/** Checks the fields we rely on; anything else in BTCPay's answer is ignored. */
export function toInvoice(raw: unknown): GreenfieldInvoice {
  const r = (raw ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN);
  const inv = {
    id: r.id,
    storeId: r.storeId,
    amount: typeof r.amount === 'number' ? String(r.amount) : r.amount,
    currency: r.currency,
    status: r.status,
    additionalStatus: typeof r.additionalStatus === 'string' ? r.additionalStatus : 'None',
    checkoutLink: typeof r.checkoutLink === 'string' ? r.checkoutLink : '',
    createdTime: num(r.createdTime),
    expirationTime: num(r.expirationTime),
    metadata: r.metadata && typeof r.metadata === 'object' ? (r.metadata as Record<string, unknown>) : {},
  };
  if (
    typeof inv.id !== 'string' ||
    !inv.id ||
    typeof inv.amount !== 'string' ||
    typeof inv.currency !== 'string' ||
    !isInvoiceStatus(inv.status) ||
    !Number.isFinite(inv.expirationTime)
  ) {
    throw new GreenfieldError('unreachable', 'BTCPay Server answered an invoice without the expected fields');
  }
  return inv as GreenfieldInvoice;
}
