import fs from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import { newId } from './ids.ts';
import { privateDir } from './private-dir.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra headers (List-Unsubscribe…). */
  headers?: Record<string, string>;
}

/** How the last message went: when, and what the transport said if it failed. */
export interface SendOutcome {
  at: string;
  ok: boolean;
  error: string | null;
}

export interface Mailer {
  /** Which transport: 'smtp' when SMTP_URL is set, else 'outbox' (files in DATA_DIR/outbox). */
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  verify(): Promise<void>;
  /**
   * The last message's outcome (null before the first), for the health check: verify() greets the
   * server and logs in only when SMTP_URL names a user, so a relay that wants AUTH (530) or refuses
   * our sender shows only here. Test doubles may leave it out.
   */
  lastSend?(): SendOutcome | null;
}

/** Wraps send() to remember how the last message went. */
function remembering(mailer: Omit<Mailer, 'lastSend'>): Required<Mailer> {
  let last: SendOutcome | null = null;
  return {
    kind: mailer.kind,
    verify: () => mailer.verify(),
    async send(m) {
      try {
        await mailer.send(m);
        last = { at: new Date().toISOString(), ok: true, error: null };
      } catch (e) {
        last = { at: new Date().toISOString(), ok: false, error: e instanceof Error ? e.message : String(e) };
        throw e;
      }
    },
    lastSend: () => last,
  };
}

/**
 * nodemailer (~8 MB of the server's memory) is loaded by the first message or check, not at start:
 * most of a server's life sends no mail.
 */
function lazyTransport(options: string | object): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => (transport ??= import('nodemailer').then((m) => m.default.createTransport(options as string)));
}

/** SMTP through nodemailer when configured; otherwise real .eml files in DATA_DIR/outbox and a log line. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, log: FastifyBaseLogger): Required<Mailer> {
  if (config.smtpUrl) {
    // nodemailer waits 2 minutes to connect, 30 s for the greeting and 10 minutes of silence: a relay
    // that stalls would hold a request (a reset link) or a health alert that long. Shorter here;
    // the URL's own query (?socketTimeout=…) still wins.
    const transport = lazyTransport({ url: config.smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 });
    return remembering({
      kind: 'smtp',
      async send(m) {
        await (await transport()).sendMail({ from: config.mailFrom, ...m });
        log.info({ to: m.to, subject: m.subject }, 'mail sent');
      },
      async verify() {
        await (await transport()).verify();
      },
    });
  }
  const outbox = outboxDir(config.dataDir);
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return remembering({
    kind: 'outbox',
    async send(m) {
      const info = await (await transport()).sendMail({ from: config.mailFrom, ...m });
      privateDir(outbox);
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId(8)}.eml`);
      fs.writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log.info({ to: m.to, subject: m.subject, file }, 'mail written to outbox (SMTP_URL not set)');
    },
    async verify() {
      privateDir(outbox);
      fs.accessSync(outbox, fs.constants.W_OK);
    },
  });
}

/** DATA_DIR/outbox: mail without SMTP_URL (*.eml), texts without a Textbelt key (*.sms.txt). */
export const outboxDir = (dataDir: string) => path.join(dataDir, 'outbox');

/** The outbox's message files (mail and texts), with their full paths. */
function outboxFiles(dataDir: string): string[] {
  const dir = outboxDir(dataDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return []; // no outbox yet: nothing was ever written there
  }
  return names.filter((n) => n.endsWith('.eml') || n.endsWith('.sms.txt')).map((n) => path.join(dir, n));
}

/**
 * Removes the outbox files that name one of `named` (an erased account's addresses and phone
 * numbers, compared without case): the outbox is a development fallback, so a scan of it is
 * enough. Returns how many went.
 */
export function forgetInOutbox(dataDir: string, named: readonly string[]): number {
  // A masked number ('•••77') or a stray short value would match messages of other people.
  const markers = named.map((m) => m.trim().toLowerCase()).filter((m) => m.length >= 6);
  if (!markers.length) return 0;
  let removed = 0;
  for (const file of outboxFiles(dataDir)) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'latin1').toLowerCase();
    } catch {
      continue; // removed meanwhile
    }
    if (markers.some((m) => text.includes(m))) {
      fs.rmSync(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/** Removes the outbox files last written before `before` (purge-sms: the SMS log's retention). Returns how many went. */
export function purgeOutbox(dataDir: string, before: Date): number {
  let removed = 0;
  for (const file of outboxFiles(dataDir)) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && stat.mtime < before) {
      fs.rmSync(file, { force: true });
      removed++;
    }
  }
  return removed;
}
