import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server on 127.0.0.1 for tests (the smtp-server package): what the app's mailer
// sends over SMTP arrives here, and tests read it back decoded (headers, subject, text, HTML).

export interface ReceivedMail {
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  /** Resolves once `n` mails have arrived (or rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * `acceptAfterMs`: a slow relay, which accepts each message that long after it arrived; `stall`: one
 * that takes each message and never answers it (a relay that hangs); `port`: listen on that port
 * (a relay that comes back where the app was told it is).
 */
export async function startSmtpSink(opts: { acceptAfterMs?: number; stall?: boolean; port?: number } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(
          parseMail(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        if (opts.stall) return;
        if (opts.acceptAfterMs) setTimeout(() => callback(), opts.acceptAfterMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(n, ms = 5000) {
      const deadline = Date.now() + ms;
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} mails, got ${mails.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return mails;
    },
    close: () => {
      // smtp-server waits for its open sessions: a stalled one never ends by itself.
      for (const conn of (server as unknown as { connections?: Set<{ close(): void }> }).connections ?? []) conn.close();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function splitHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=). */
function decodeWords(v: string): string {
  return v.replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : decodeQp(data.replace(/_/g, ' ')),
  );
}

function decodeQp(v: string): string {
  const bytes: number[] = [];
  const text = v.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const enc = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (enc === 'quoted-printable') return decodeQp(body);
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

export function parseMail(raw: string, to: string[]): ReceivedMail {
  const cut = raw.search(/\r?\n\r?\n/);
  const headers = splitHeaders(raw.slice(0, cut));
  const body = raw.slice(cut).replace(/^\r?\n\r?\n/, '');
  let text = '';
  let html = '';
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [body];
  for (const part of boundary ? parts : []) {
    const c = part.replace(/^\r?\n/, '').search(/\r?\n\r?\n/);
    const p = part.replace(/^\r?\n/, '');
    const h = splitHeaders(p.slice(0, c));
    const content = decodeBody(
      h,
      p
        .slice(c)
        .replace(/^\r?\n\r?\n/, '')
        .replace(/\r?\n$/, ''),
    );
    if ((h['content-type'] ?? '').startsWith('text/plain')) text = content;
    if ((h['content-type'] ?? '').startsWith('text/html')) html = content;
  }
  if (!boundary) text = decodeBody(headers, body);
  return { to, headers, subject: decodeWords(headers.subject ?? ''), text, html, raw };
}
