import fs from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../../core/deps.ts';
import { currentActor, type SessionUser } from '../../core/auth.ts';
import { AppError, Conflict, Forbidden, Invalid, NotFound, ServiceUnavailable } from '../../core/errors.ts';
import type { Executor } from '../../core/db.ts';
import { isStaff } from '../../core/policy.ts';
import { writeAudit } from '../../core/audit.ts';
import { DAY_MS } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { privateDir } from '../../core/private-dir.ts';
import { outboxDir } from '../../core/mailer.ts';
import { paging } from '../../core/http.ts';
import { normalizeUsPhone } from '../../../contract/rules.ts';
import type { SmsMessage, TextbeltToken } from '../../../contract/api/sms.ts';
import { TextbeltClient, TextbeltUnreachable, isTestKey } from './textbelt.client.ts';
import type { SmsStatusValue } from './sms.tables.ts';
import { PhoneVerification } from './sms.verification.ts';
import { gatewayUrl, maskToken, textbeltSaid, type SmsStatus } from './sms.gateway.ts';
import { maskPhone, toDto, type OutgoingSms } from './sms.messages.ts';
import * as repo from './sms.repository.ts';

// The SMS service: the staff's Textbelt key and its balance, the staff's test message, the message
// log and its delivery statuses, and sending (through Textbelt, or to the outbox without a key).
// The gateway's whereabouts and wording are in sms.gateway.ts, a message's shapes in sms.messages.ts.

/** The test message sent when staff leave it empty, in the language of the page that sent it (GSM-7 in each: one segment). */
export const DEFAULT_TEST_MESSAGES = {
  en: 'XG Marketplace: this is a test message.',
  es: 'XG Marketplace: este es un mensaje de prueba.',
  pt: 'XG Marketplace: esta é uma mensagem de teste.',
} as const;
export const DEFAULT_TEST_MESSAGE = DEFAULT_TEST_MESSAGES.en;
const TOKEN_RE = /^[A-Za-z0-9_-]+$/;
/** Delivery statuses are asked for messages of the last 7 days, at most this many per refresh. */
const STATUS_WINDOW_MS = 7 * DAY_MS;
const STATUS_BATCH = 20;

const lower = (s: string) => s.toLowerCase() as SmsStatusValue;

/** The actor as they are now: demoted or suspended since the request came in, refused (403, 401). */
async function stillStaff(db: Executor, actor: SessionUser): Promise<void> {
  if (!isStaff(await currentActor(db, actor))) throw new Forbidden();
}

export class SmsService {
  private readonly deps: AppDeps;
  private readonly client: TextbeltClient | null;
  /** Phone verification by a texted code (POST /api/phone-verification…). */
  readonly verification: PhoneVerification;

  constructor(deps: AppDeps) {
    this.deps = deps;
    const url = gatewayUrl(deps.config);
    this.client = url ? new TextbeltClient(url, { timeoutMs: deps.limits.textbeltTimeoutMs }) : null;
    this.verification = new PhoneVerification(deps, this);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The key Textbelt is asked with; null when none is set (or the gateway may not be asked): the outbox. */
  private async key(): Promise<string | null> {
    if (!this.client) return null;
    return (await repo.currentToken(this.deps.db))?.token ?? null;
  }

  /** The gateway's state for the health check (asks Textbelt's /quota/{key} when a token is set). */
  async status(): Promise<SmsStatus> {
    const key = await this.key();
    if (!key || !this.client) return { configured: false, quotaRemaining: null, error: null, failure: null };
    try {
      const q = await this.client.quota(key);
      if (!q.success) {
        const error = q.error ? `Textbelt refused the key: ${q.error}` : 'Textbelt refused the key';
        return { configured: true, quotaRemaining: q.quotaRemaining, error, failure: textbeltSaid({ refused: q.error }) };
      }
      return { configured: true, quotaRemaining: q.quotaRemaining, error: null, failure: null };
    } catch (err) {
      if (err instanceof TextbeltUnreachable) return { configured: true, quotaRemaining: null, error: err.message, failure: textbeltSaid(err) };
      throw err;
    }
  }

  // ---- the key (staff) ----

  async getToken(): Promise<TextbeltToken> {
    const row = await repo.currentToken(this.deps.db);
    if (!row) throw new NotFound('sms.token_not_found');
    return { id: row.id, token: maskToken(row.token) };
  }

  /** Sets (or, with an empty token, removes) the key. The audit row says what changed, never the key. */
  async updateToken(actor: SessionUser, id: number, input: string): Promise<TextbeltToken> {
    const token = input.trim();
    if (token !== '' && !TOKEN_RE.test(token)) throw new Invalid('token', 'sms.token_invalid');
    const at = this.now();
    return this.deps.db.transaction().execute(async (trx) => {
      await stillStaff(trx, actor);
      const row = await repo.findToken(trx, id);
      if (!row) throw new NotFound('sms.token_not_found');
      // The same key saved again: nothing changes, nothing to audit.
      if ((token || null) === row.token) return { id, token: maskToken(row.token) };
      await repo.setToken(trx, id, { token: token || null, at, by: actor.id });
      await writeAudit(trx, {
        actor: { id: actor.id, email: actor.email },
        action: 'textbelt_token.update',
        targetType: 'textbelt_token',
        targetId: String(id),
        before: { token: maskToken(row.token) },
        after: { token: maskToken(token || null) },
        at,
      });
      return { id, token: maskToken(token || null) };
    });
  }

  /** The key's remaining quota, from Textbelt. */
  async balance(id: number): Promise<{ quotaRemaining: number }> {
    const row = await repo.findToken(this.deps.db, id);
    if (!row) throw new NotFound('sms.token_not_found');
    if (!row.token || !this.client) throw new Conflict('sms.not_configured');
    const q = await this.ask(() => this.client!.quota(row.token!));
    // Only Textbelt's own words go out as they came; what we say of it is a code the page words.
    if (!q.success) throw q.error ? new AppError(502, 'sms.provider_refused', { detail: q.error }) : new AppError(502, 'sms.provider_refused_silently');
    if (q.quotaRemaining === null) throw new ServiceUnavailable('sms.provider_no_quota');
    return { quotaRemaining: q.quotaRemaining };
  }

  // ---- messages ----

  /**
   * Staff: one test message (audited); Textbelt's refusal or absence is in the message's status.
   * Left empty, the standard text in the language of the page that sent it: the session hook makes
   * the request's X-Locale the actor's `locale` (core/auth.ts), the pages last used without one.
   */
  async sendTest(actor: SessionUser, input: { phone: string; message?: string }): Promise<SmsMessage> {
    const to = normalizeUsPhone(input.phone);
    if (!to) throw new Invalid('phone', 'phone.invalid');
    const text = input.message?.trim() || DEFAULT_TEST_MESSAGES[actor.locale ?? 'en'];
    // A message sent cannot be taken back: asked again right before sending, not only when the request came in.
    await stillStaff(this.deps.db, actor);
    const { maybeDelivered: _unsure, ...message } = await this.send({ to, text, storedText: text, purpose: 'test', userId: actor.id });
    void _unsure; // staff read the stored status
    await writeAudit(this.deps.db, {
      actor: { id: actor.id, email: actor.email },
      action: 'sms.test_send',
      targetType: 'sms_message',
      targetId: String(message.id),
      // What was sent, not only to whom: the SMS log's copy is purged with its retention, this row stays.
      after: { to, text, status: message.status },
      at: message.createdAt,
    });
    return message;
  }

  async list(q: { page?: number; pageSize?: number }) {
    const { page, pageSize, offset } = paging(q);
    const { rows, total } = await repo.listMessages(this.deps.db, { offset, limit: pageSize });
    return { messages: rows.map(toDto), total, page, pageSize, configured: (await this.key()) !== null };
  }

  /** Asks Textbelt where the recent messages still under way are; those it could not ask about count as failed. */
  async refreshStatuses(): Promise<{ checked: number; updated: number; failed: number }> {
    const since = new Date(this.deps.clock.now().getTime() - STATUS_WINDOW_MS).toISOString();
    const rows = await repo.messagesUnderWay(this.deps.db, since, STATUS_BATCH);
    const client = this.client;
    if (!rows.length || !client) return { checked: rows.length, updated: 0, failed: rows.length };
    const answers = await Promise.all(
      rows.map(async (r) => {
        try {
          return { row: r, status: lower(await client.status(r.text_id!)) };
        } catch (err) {
          if (!(err instanceof TextbeltUnreachable)) throw err;
          this.deps.log.warn({ id: r.id, detail: err.detail }, 'textbelt status could not be asked');
          return { row: r, status: null };
        }
      }),
    );
    const at = this.now();
    let updated = 0;
    for (const a of answers) {
      if (!a.status) continue;
      await repo.setMessageStatus(this.deps.db, a.row.id, a.status, at);
      if (a.status !== a.row.status) updated++;
    }
    return { checked: rows.length, updated, failed: answers.filter((a) => !a.status).length };
  }

  /**
   * Sends one message through Textbelt with the admins' key, or writes it to the outbox when none
   * is set, and stores it. Never throws for Textbelt's refusal or absence: the stored status says.
   */
  async send(m: OutgoingSms): Promise<SmsMessage & { maybeDelivered: boolean }> {
    const key = await this.key();
    let maybeDelivered = false;
    let status: SmsStatusValue;
    let textId: string | null = null;
    // Stored: the failure's code as JSON (textbeltSaid); logged: its English.
    let error: string | null = null;
    let detail: string | null = null;
    let quotaRemaining: number | null = null;
    if (!key || !this.client) {
      const file = this.writeOutbox(m);
      this.deps.log.info({ to: maskPhone(m.to), file, text: m.storedText }, 'text message written to outbox (no Textbelt key set)');
      status = 'outbox';
    } else {
      try {
        const r = await this.client.send(key, m.to, m.text);
        quotaRemaining = r.quotaRemaining;
        if (r.success) {
          status = isTestKey(key) ? 'test' : 'accepted';
          textId = r.textId;
        } else {
          status = 'refused';
          error = JSON.stringify(textbeltSaid({ refused: r.error }));
          detail = r.error;
        }
      } catch (err) {
        if (!(err instanceof TextbeltUnreachable)) throw err;
        status = 'error';
        error = JSON.stringify(textbeltSaid(err));
        detail = err.detail;
        maybeDelivered = err.maybeDelivered;
      }
      const level = status === 'accepted' || status === 'test' ? 'info' : 'warn';
      this.deps.log[level]({ to: maskPhone(m.to), status, textId, error: detail, text: m.storedText }, 'text message sent through Textbelt');
    }
    const id = await repo.insertMessage(this.deps.db, {
      to: m.to,
      body: m.storedText,
      purpose: m.purpose,
      userId: m.userId,
      status,
      textId,
      error,
      quotaRemaining,
      at: this.now(),
    });
    return { ...toDto((await repo.findMessage(this.deps.db, id))!), maybeDelivered };
  }

  /**
   * The message as a text file in DATA_DIR/outbox (the code in clear: the outbox is the delivery),
   * so the folder is the server user's alone, whichever of a mail or a text made it (mailer.ts).
   */
  private writeOutbox(m: OutgoingSms): string {
    const dir = outboxDir(this.deps.config.dataDir);
    privateDir(dir);
    const file = path.join(dir, `${this.now().replace(/[:.]/g, '-')}-${newId(8)}.sms.txt`);
    fs.writeFileSync(file, `To: ${m.to}\n\n${m.text}\n`, { mode: 0o600 });
    return file;
  }

  /** Runs one call to Textbelt; unreachable becomes a 503 whose code says what went wrong (its English in the log). */
  private async ask<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof TextbeltUnreachable)) throw err;
      this.deps.log.warn({ detail: err.detail }, 'textbelt could not be asked');
      if (err.reason === 'timeout') throw new ServiceUnavailable('sms.provider_timeout', { seconds: err.seconds ?? 0 });
      if (err.reason === 'http') throw new ServiceUnavailable('sms.provider_http', { status: err.status ?? 0 });
      if (err.reason === 'not_json') throw new ServiceUnavailable('sms.provider_not_json');
      throw new ServiceUnavailable('sms.provider_unreachable');
    }
  }
}
