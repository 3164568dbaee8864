// The Textbelt API as INTEGRATIONS.md describes the hosted service: POST /text, GET /quota/{key},
// GET /status/{textId}. Every answer of the service is HTTP 200, success or not; any other status,
// no answer in time, or a body that is not the expected JSON is a transport failure
// (TextbeltUnreachable). One request per call, never retried here: a retried send could text twice.

export type TextbeltDelivery = 'DELIVERED' | 'SENT' | 'SENDING' | 'FAILED' | 'UNKNOWN';
const DELIVERIES: readonly string[] = ['DELIVERED', 'SENT', 'SENDING', 'FAILED', 'UNKNOWN'];

/**
 * Why Textbelt could not be asked, as a code staff screens word in their language (admin locale,
 * says.sms.<reason>): no answer in time, no connection, a status other than 200, an answer that is
 * not its JSON object.
 */
export type UnreachableReason = 'timeout' | 'connection' | 'http' | 'not_json';

/** Textbelt could not be asked: network error, timeout, a status other than 200, or an answer that is not its JSON. */
export class TextbeltUnreachable extends Error {
  readonly reason: UnreachableReason;
  /** The reason's figure: the HTTP status (http), the seconds waited (timeout). */
  readonly status: number | null;
  readonly seconds: number | null;
  /** The system's code of a failed connection (ECONNREFUSED, ENOTFOUND), when it gave one. */
  readonly systemCode: string | null;
  /** Plain English for the log, e.g. "no answer in 10 s", "HTTP 502". */
  readonly detail: string;
  /**
   * The request reached Textbelt and it may have acted on it: no answer in time, or an answer we
   * cannot read. A send may then have gone out (and used quota). False when it never got there
   * (no connection) or answered with an error status.
   */
  readonly maybeDelivered: boolean;
  constructor(
    reason: UnreachableReason,
    detail: string,
    opts: { maybeDelivered?: boolean; status?: number; seconds?: number; systemCode?: string | null } = {},
  ) {
    super(`Textbelt could not be reached: ${detail}`);
    this.reason = reason;
    this.detail = detail;
    this.status = opts.status ?? null;
    this.seconds = opts.seconds ?? null;
    this.systemCode = opts.systemCode ?? null;
    this.maybeDelivered = opts.maybeDelivered ?? false;
  }
}

/** A refusal's `error` is Textbelt's own words, null when it gave none. */
export type SendResult =
  { success: true; textId: string | null; quotaRemaining: number | null } | { success: false; error: string | null; quotaRemaining: number | null };

export interface QuotaResult {
  success: boolean;
  quotaRemaining: number | null;
  error: string | null;
}

/** Keys ending in `_test` validate the request without sending a text or using quota. */
export const isTestKey = (key: string) => key.endsWith('_test');

const quotaOf = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);

/** Textbelt sends ids as numbers or strings: we keep a string. */
function textIdOf(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && v.trim() !== '' && v.length <= 200) return v;
  return null;
}

const errorOf = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 500) : null);
/** A system error code as Node gives it (ECONNREFUSED, UND_ERR_SOCKET): an identifier, not words. */
const systemCodeOf = (v: unknown): string | null => (typeof v === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(v) ? v : null);

export class TextbeltClient {
  private readonly base: string;
  private readonly timeoutMs: number;
  constructor(baseUrl: string, opts: { timeoutMs?: number } = {}) {
    this.base = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /** One message; `phone` in E.164 (+1 and ten digits) or ten digits. */
  async send(key: string, phone: string, message: string): Promise<SendResult> {
    const body = await this.call('/text', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone, message, key }) });
    if (body.success === true) return { success: true, textId: textIdOf(body.textId), quotaRemaining: quotaOf(body.quotaRemaining) };
    return { success: false, error: errorOf(body.error), quotaRemaining: quotaOf(body.quotaRemaining) };
  }

  async quota(key: string): Promise<QuotaResult> {
    const body = await this.call(`/quota/${encodeURIComponent(key)}`, { method: 'GET' });
    const success = body.success === true;
    return { success, quotaRemaining: quotaOf(body.quotaRemaining), error: success ? null : errorOf(body.error) };
  }

  /** Where a sent message is; an answer Textbelt does not document counts as UNKNOWN. */
  async status(textId: string): Promise<TextbeltDelivery> {
    const body = await this.call(`/status/${encodeURIComponent(textId)}`, { method: 'GET' });
    return typeof body.status === 'string' && DELIVERIES.includes(body.status) ? (body.status as TextbeltDelivery) : 'UNKNOWN';
  }

  private async call(path: string, init: RequestInit): Promise<Record<string, unknown>> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.base + path, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
      text = await res.text();
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        const seconds = this.timeoutMs / 1000;
        throw new TextbeltUnreachable('timeout', `no answer in ${seconds} s`, { seconds, maybeDelivered: true });
      }
      const systemCode = systemCodeOf(e.cause?.code);
      throw new TextbeltUnreachable('connection', systemCode ?? (e.message || 'network error'), { systemCode });
    }
    if (res.status !== 200) throw new TextbeltUnreachable('http', `HTTP ${res.status}`, { status: res.status });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new TextbeltUnreachable('not_json', 'the answer is not JSON', { maybeDelivered: true });
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new TextbeltUnreachable('not_json', 'the answer is not a JSON object', { maybeDelivered: true });
    return body as Record<string, unknown>;
  }
}
