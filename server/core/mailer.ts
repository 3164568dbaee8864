import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import { newId } from './ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra headers (List-Unsubscribe…). */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Which transport: 'smtp' when SMTP_URL is set, else 'outbox' (files in DATA_DIR/outbox). */
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  verify(): Promise<void>;
}

/** SMTP through nodemailer when configured; otherwise real .eml files in DATA_DIR/outbox and a log line. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: 'smtp',
      async send(m) {
        await transport.sendMail({ from: config.mailFrom, ...m });
        log.info({ to: m.to, subject: m.subject }, 'mail sent');
      },
      async verify() {
        await transport.verify();
      },
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(m) {
      const info = await transport.sendMail({ from: config.mailFrom, ...m });
      fs.mkdirSync(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId(8)}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      log.info({ to: m.to, subject: m.subject, file }, 'mail written to outbox (SMTP_URL not set)');
    },
    async verify() {
      fs.mkdirSync(outbox, { recursive: true });
      fs.accessSync(outbox, fs.constants.W_OK);
    },
  };
}
