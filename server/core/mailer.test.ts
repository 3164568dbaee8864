import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import pino from 'pino';
import { createMailer } from './mailer.ts';

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
