import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { domainToUnicode } from 'node:url';
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
 * Removes the outbox files addressed to one of `named` (an erased account's addresses and phone
 * numbers): the outbox is a development fallback, so a scan of it is enough. A file goes when a
 * recipient header (To, Cc, Bcc) names one of them as a whole address: ann@… does not take the
 * mail of joann@…. Addresses compare without case, in Unicode (NFKC) whichever form the file
 * holds (UTF-8 as nodemailer writes it, a MIME encoded-word, a punycode domain); numbers compare
 * by their digits. An entry may be an address's digest (addressDigest: a former address of the
 * account, kept without its text). Never throws (it runs after an erasure has committed): a file
 * that cannot be read or removed is logged and left for purge-sms. Returns how many went.
 */
export function forgetInOutbox(dataDir: string, named: readonly string[], log?: Pick<FastifyBaseLogger, 'warn'>): number {
  const digests = new Set(named.filter((m) => m.startsWith(DIGEST_PREFIX)));
  const plain = named.filter((m) => !digests.has(m));
  const addresses = new Set(plain.filter((m) => m.includes('@')).map(canonicalAddress));
  // A masked number ('•••77') or a stray short value would match messages of other people.
  const numbers = new Set(
    plain
      .filter((m) => !m.includes('@'))
      .map(digitsOf)
      .filter((d) => d.length >= 6),
  );
  if (!addresses.size && !digests.size && !numbers.size) return 0;
  const isNamed = (recipient: string) => {
    const a = canonicalAddress(recipient);
    return addresses.has(a) || (digests.size > 0 && digests.has(digestOf(a)));
  };
  let removed = 0;
  for (const file of outboxFiles(dataDir)) {
    try {
      const recipients = recipientsOf(fs.readFileSync(file, 'utf8'));
      const hit = file.endsWith('.sms.txt') ? recipients.some((r) => numbers.has(digitsOf(r))) : recipients.some((r) => r.includes('@') && isNamed(r));
      if (!hit) continue;
      fs.rmSync(file, { force: true });
      removed++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log?.warn({ err, file }, 'could not forget an outbox file'); // ENOENT: removed meanwhile
    }
  }
  return removed;
}

const digitsOf = (v: string) => v.replace(/\D/g, '');

const DIGEST_PREFIX = 'sha256:';
const digestOf = (canonical: string) => DIGEST_PREFIX + createHash('sha256').update(`outbox-address\0${canonical}`).digest('hex');

/**
 * What a former address of an account is kept as (email_changes.old_email_digest): enough for
 * forgetInOutbox to know the mail sent to it, without the address itself on record.
 */
export const addressDigest = (address: string): string => digestOf(canonicalAddress(address));

/** An address as compared: NFKC, lower case, the domain in Unicode (a punycode label decoded). */
function canonicalAddress(address: string): string {
  const a = address.trim().normalize('NFKC').toLowerCase();
  const at = a.lastIndexOf('@');
  if (at < 0) return a;
  const domain = a.slice(at + 1);
  return `${a.slice(0, at)}@${domainToUnicode(domain) || domain}`;
}

/** The addresses (or, in a text's file, numbers) its To, Cc and Bcc headers name. */
function recipientsOf(message: string): string[] {
  const end = message.search(/\r?\n\r?\n/);
  const head = (end < 0 ? message : message.slice(0, end)).replace(/\r?\n[ \t]+/g, ' '); // unfolded
  const out: string[] = [];
  for (const line of head.split(/\r?\n/)) {
    const m = /^(?:to|cc|bcc):(.*)$/i.exec(line);
    if (m) out.push(...addressesIn(decodeWords(m[1])));
  }
  return out;
}

/** Each item of an address list: the address in angle brackets, or the item itself; display names left out. */
function addressesIn(list: string): string[] {
  const items: string[] = [];
  let item = '';
  let quoted = false;
  for (const ch of list) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      items.push(item);
      item = '';
    } else item += ch;
  }
  items.push(item);
  return items.map((i) => (/<([^<>]*)>\s*$/.exec(i)?.[1] ?? i).trim()).filter(Boolean);
}

/** Decodes RFC 2047 encoded-words (=?charset?Q|B?…?=); adjacent ones join without the space between. */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?\s]+\?[QqBb]\?[^?\s]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?\s]+)\?([QqBb])\?([^?\s]*)\?=/g, (word, charset: string, enc: string, text: string) => {
      const bytes =
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
              'latin1',
            );
      try {
        return new TextDecoder(charset.replace(/\*.*$/, '')).decode(bytes); // RFC 2231 language suffix dropped
      } catch {
        return word; // a charset Node does not know: left as it is
      }
    });
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
