import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import pino from 'pino';
import { addressDigest, createMailer, forgetInOutbox } from './mailer.ts';
import { createTestApp, makeUser } from '../test/harness.ts';
import { startSmtpSink } from '../test/fakes/smtp.ts';

const log = pino({ level: 'silent' });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Received {
  from: string;
  to: string[];
  raw: string;
}

async function startSmtp(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'], // plain SMTP on loopback; no certificate to trust
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received };
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-mail-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('mailer', () => {
  it('delivers through SMTP to a real server', async () => {
    const smtp = await startSmtp();
    const dataDir = tempDir();
    const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'XG Marketplace <no-reply@xg.test>', dataDir }, log);
    expect(mailer.kind).toBe('smtp');
    await mailer.verify();
    await mailer.send({
      to: 'ann@example.com',
      subject: 'Confirm your new e-mail address',
      text: 'Open this link: https://xg.test/auth/confirm-email?token=abc',
    });

    expect(smtp.received).toHaveLength(1);
    const m = smtp.received[0];
    expect(m.from).toBe('no-reply@xg.test');
    expect(m.to).toEqual(['ann@example.com']);
    expect(m.raw).toMatch(/^To: ann@example\.com$/m);
    expect(m.raw).toMatch(/^From: XG Marketplace <no-reply@xg\.test>$/m);
    expect(m.raw).toMatch(/^Subject: Confirm your new e-mail address$/m);
    expect(m.raw).toContain('https://xg.test/auth/confirm-email?token=abc');
    expect(fs.existsSync(path.join(dataDir, 'outbox'))).toBe(false);
  });

  it('fails loudly when the SMTP server cannot be reached', async () => {
    const smtp = await startSmtp();
    await cleanups.pop()!(); // stop it: the port is now closed
    const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'x@xg.test', dataDir: tempDir() }, log);
    expect(mailer.lastSend()).toBeNull();
    const before = Date.now();
    await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow();
    // Remembered for the health check: verify() alone cannot tell that sending fails.
    const last = mailer.lastSend();
    expect(last).toMatchObject({ ok: false, error: expect.stringMatching(/ECONNREFUSED/) });
    expect(Date.parse(last!.at)).toBeGreaterThanOrEqual(before);
  });

  it('remembers that the last message went', async () => {
    const smtp = await startSmtp();
    const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'x@xg.test', dataDir: tempDir() }, log);
    await mailer.send({ to: 'a@example.com', subject: 's', text: 't' });
    expect(mailer.lastSend()).toMatchObject({ ok: true, error: null });
  });

  it('without SMTP_URL writes a real .eml file into DATA_DIR/outbox', async () => {
    const dataDir = tempDir();
    const mailer = createMailer({ smtpUrl: null, mailFrom: 'XG Marketplace <no-reply@localhost>', dataDir }, log);
    expect(mailer.kind).toBe('outbox');
    await mailer.verify();
    await mailer.send({ to: 'bob@example.com', subject: 'Your promo code', text: 'Your code is WELCOME-2026.' });
    const files = fs.readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = fs.readFileSync(path.join(dataDir, 'outbox', files[0]), 'utf8');
    expect(eml).toMatch(/^To: bob@example\.com$/m);
    expect(eml).toMatch(/^Subject: Your promo code$/m);
    expect(eml).toMatch(/^Message-ID: <.+>$/m);
    expect(eml).toContain('Your code is WELCOME-2026.');
  });

  it('keeps the outbox to the server user alone: its mails hold live reset links and codes (as secrets.json is)', async () => {
    const dataDir = tempDir();
    const mailer = createMailer({ smtpUrl: null, mailFrom: 'XG Marketplace <no-reply@localhost>', dataDir }, log);
    await mailer.send({ to: 'bob@example.com', subject: 'Reset your password', text: 'https://xg.example/reset-password?token=abc' });
    const outbox = path.join(dataDir, 'outbox');
    const [file] = fs.readdirSync(outbox);
    expect(fs.statSync(outbox).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(outbox, file)).mode & 0o777).toBe(0o600);
    // An outbox made by an older version (0755) is closed too.
    fs.chmodSync(outbox, 0o755);
    await mailer.verify();
    expect(fs.statSync(outbox).mode & 0o777).toBe(0o700);
  });
});

describe("the site's mail on the wire", () => {
  // A sender (or a Message-ID, RFC 5322 §3.6.4) at localhost cannot pass SPF, DKIM or DMARC:
  // reset links and codes would land in spam or be refused.
  it('with MAIL_FROM left at its default, a reset mail names the domain of PUBLIC_URL in From and Message-ID', async () => {
    const smtp = await startSmtpSink();
    cleanups.push(() => smtp.close());
    const ctx = await createTestApp({ mail: 'smtp', env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://xg.example' } });
    cleanups.push(() => ctx.close());
    const u = await makeUser(ctx, { status: 'approved' });
    // A forged Host and X-Forwarded-Host change nothing in the link.
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/password-reset-request',
      payload: { email: u.email },
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-locale': 'pt' },
    });
    expect(res.statusCode).toBe(202);
    const [mail] = await smtp.waitFor(1);
    expect(mail.subject).toBe('Redefina sua senha do XG Marketplace');
    expect(mail.text).toContain('https://xg.example/pt/auth/reset-password?token=');
    expect(mail.raw).not.toContain('evil.example');
    expect(mail.raw).not.toContain('localhost');
    expect({ from: mail.headers.from, messageId: mail.headers['message-id'] }).toEqual({
      from: 'XG Marketplace <no-reply@xg.example>',
      messageId: expect.stringMatching(/^<[^@>]+@xg\.example>$/),
    });
  });
});

describe('forgetInOutbox (an erasure clears the outbox of the mail and texts sent to the account)', () => {
  const write = (dataDir: string, name: string, text: string) => {
    fs.mkdirSync(path.join(dataDir, 'outbox'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'outbox', name), text);
  };
  const left = (dataDir: string) => fs.readdirSync(path.join(dataDir, 'outbox')).sort();

  it('removes the mail addressed to an address outside ASCII, whichever form the file holds it in', async () => {
    const dataDir = tempDir();
    const mailer = createMailer({ smtpUrl: null, mailFrom: 'XG Marketplace <no-reply@localhost>', dataDir }, log);
    await mailer.send({ to: 'josé.núñez@exämple.com', subject: 'Reset your password', text: 'https://xg.example/reset-password?token=abc' }); // UTF-8, as nodemailer writes it
    write(dataDir, 'encoded.eml', 'To: =?UTF-8?Q?jos=C3=A9=2En=C3=BA=C3=B1ez?=@exämple.com\nSubject: s\n\nt\n'); // MIME encoded-word
    write(dataDir, 'base64.eml', 'To: =?utf-8?B?Sm9zw6k=?=\n =?utf-8?B?IE7DusOxZXo=?= <=?utf-8?B?am9zw6kubsO6w7FlekBleMOkbXBsZS5jb20=?=>\nSubject: s\n\nt\n'); // folded, B-encoded
    write(dataDir, 'punycode.eml', 'Cc: Jos\u00e9 <JOSÉ.NÚÑEZ@xn--exmple-cua.com>\nSubject: s\n\nt\n'); // punycode domain, upper case
    write(dataDir, 'other.eml', 'To: jose.nunez@example.com\nSubject: s\n\nt\n');
    expect(forgetInOutbox(dataDir, ['josé.núñez@exämple.com'])).toBe(4);
    expect(left(dataDir)).toEqual(['other.eml']);
  });

  it("takes only the mail addressed to the address itself: not another's that contains it, nor one that names it in its text", () => {
    const dataDir = tempDir();
    write(dataDir, 'ann.eml', 'To: Ann <ann@example.com>\nSubject: s\n\nt\n');
    write(dataDir, 'joann.eml', 'To: joann@example.com\nSubject: s\n\nhttps://xg.example/reset-password?token=abc\n');
    write(dataDir, 'annex.eml', 'To: ann@example.com.br, x@ann@example.com\nSubject: s\n\nt\n');
    write(dataDir, 'mentions.eml', 'To: bob@example.com\nSubject: ann@example.com\n\nann@example.com\n');
    expect(forgetInOutbox(dataDir, ['ann@example.com'])).toBe(1);
    expect(left(dataDir)).toEqual(['annex.eml', 'joann.eml', 'mentions.eml']);
  });

  it('knows a former address by its digest, as an e-mail change keeps it (email_changes.old_email_digest)', () => {
    const dataDir = tempDir();
    write(dataDir, 'first.eml', 'To: =?UTF-8?Q?Jos=C3=A9?= <JOSÉ@xn--exmple-cua.com>\nSubject: s\n\nt\n');
    write(dataDir, 'other.eml', 'To: jo@exämple.com\nSubject: s\n\nt\n');
    const digest = addressDigest('josé@exämple.com');
    expect(digest).not.toContain('exämple');
    expect(forgetInOutbox(dataDir, [digest])).toBe(1);
    expect(left(dataDir)).toEqual(['other.eml']);
  });

  it('removes the texts sent to a number the account had, by its digits; a masked number takes nothing', () => {
    const dataDir = tempDir();
    write(dataDir, 'a.sms.txt', 'To: +12125550199\n\nYour code is 123456\n');
    write(dataDir, 'b.sms.txt', 'To: +12125550188\n\nYour code is 654321 for +12125550199\n');
    write(dataDir, 'c.eml', 'To: ann@example.com\nSubject: s\n\n+12125550199\n');
    expect(forgetInOutbox(dataDir, ['•••88', '+1 (212) 555-0199'])).toBe(1);
    expect(left(dataDir)).toEqual(['b.sms.txt', 'c.eml']);
  });
});
