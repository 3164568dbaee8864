import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeMail, MAIL_LOCALES, TEMPLATES, utcMoment } from './mail-templates.ts';
import { createTestApp } from '../test/harness.ts';
import { startSmtpSink } from '../test/fakes/smtp.ts';

// Every e-mail a user gets, in the three languages: the same placeholders in each, a translation
// (not the English words again), the words the pages use, and dates the reader's way.

const placeholders = (t: { subject: string; paragraphs: readonly string[]; action?: string }) =>
  [...`${t.subject} ${t.paragraphs.join(' ')} ${t.action ?? ''}`.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('e-mail templates', () => {
  it('have every language, with the same placeholders, each translated', () => {
    for (const [name, texts] of Object.entries(TEMPLATES)) {
      const en = texts.en;
      for (const locale of MAIL_LOCALES) {
        const t = texts[locale];
        expect(t, `${name} ${locale}`).toBeDefined();
        expect(placeholders(t), `${name} ${locale}`).toEqual(placeholders(en));
        expect(Boolean(t.action), `${name} ${locale} action`).toBe(Boolean(en.action));
        if (locale !== 'en') expect(t.subject, `${name} ${locale}`).not.toBe(en.subject);
      }
    }
  });

  it('call the wallet what the Spanish pages call it (billetera, not monedero)', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const ui = ['common', 'payments', 'dashboard', 'market'].map((ns) => fs.readFileSync(path.join(root, `src/i18n/locales/es/${ns}.json`), 'utf8')).join('\n');
    expect(ui).toMatch(/billetera/);
    expect(JSON.stringify(Object.values(TEMPLATES).map((t) => t.es))).not.toMatch(/monedero/);
  });

  it('write a moment the reader’s way, in UTC and said so', () => {
    const at = '2026-02-14T15:05:00.000Z';
    expect(utcMoment(at, 'en')).toBe('Feb 14, 2026, 3:05 PM UTC');
    expect(utcMoment(at, 'es')).toBe('14 feb 2026, 15:05 UTC');
    expect(utcMoment(at, 'pt')).toBe('14 de fev. de 2026, 15:05 UTC');
    expect(utcMoment('2026-02-14T23:59:59.999Z', 'en')).toBe('Feb 14, 2026, 11:59 PM UTC'); // UTC, not the server's zone
  });
});

describe('a staff e-mail', () => {
  it("keeps a reporter's lines apart and their markup inert in HTML, and leaves out a line whose value is empty", () => {
    const mail = composeMail('staffReport', 'en', 'staff@example.com', {
      urgent: '',
      kind: 'Ad report',
      id: 'r1',
      when: 'Feb 14, 2026, 3:05 PM UTC',
      adUrl: '',
      contact: 'ann@example.com',
      message: 'First line.\n<b>second</b> line {link}',
      link: 'https://xg.example/admin/dashboard/admin/reports',
    });
    expect(mail.subject).toBe('[XG] Ad report r1');
    expect(mail.html).toMatch(/<blockquote[^>]*>First line\.<br>&#60;b&#62;second&#60;\/b&#62; line \{link\}<\/blockquote>/);
    expect(mail.text).toContain('> First line.\n> <b>second</b> line {link}');
    expect(mail.text).not.toMatch(/^Ad: /m);
    expect(mail.text).toContain('Contact: ann@example.com');
  });

  // Staff act on these mails: a public form must not be able to add a look-alike "Review it:" link
  // to another site (phishing the staff's sign-in) or a fake footer.
  it("quotes the sender's words under a label, in every language, so none can pass for the mail's own lines", () => {
    const forged = 'Please look.\r\n\r\nReview it: https://evil.example/admin\rRevisarlo: https://evil.example/es\n--\nXG Marketplace.';
    const link = 'https://xg.example/admin/dashboard/admin/reports';
    const labels = { en: 'Message from the sender:', es: 'Mensaje del remitente:', pt: 'Mensagem do remetente:' };
    for (const locale of MAIL_LOCALES) {
      const mail = composeMail('staffReport', locale, 'staff@example.com', {
        urgent: '',
        kind: 'Contact message',
        id: 'r2',
        when: 'now',
        adUrl: '',
        contact: 'ann@example.com\nReview it: https://evil.example/2',
        message: forged,
        link,
      });
      const lines = mail.text.split('\n');
      const label = lines.indexOf(labels[locale]);
      expect(label, locale).toBeGreaterThan(-1);
      expect(lines.slice(label + 1, label + 7), locale).toEqual([
        '> Please look.',
        '>',
        '> Review it: https://evil.example/admin',
        '> Revisarlo: https://evil.example/es',
        '> --',
        '> XG Marketplace.',
      ]);
      // The contact stays on its own line; the mail's own call to action and footer are the only ones.
      const outside = lines.filter((l) => l.includes('evil.example') && !l.startsWith('> '));
      expect(outside, locale).toEqual([expect.stringMatching(/^(Contact|Contacto|Contato): ann@example\.com Review it: https:\/\/evil\.example\/2$/)]);
      expect([lines.filter((l) => l.endsWith(link)).length, lines.filter((l) => l === '--').length], locale).toEqual([1, 1]);
      expect(mail.html, locale).toContain(`<p>${labels[locale]}</p>\n<blockquote`);
      expect(mail.html!.match(/evil\.example/g), locale).toHaveLength(3); // in the blockquote (2) and the contact line, never a link
      expect(mail.html, locale).not.toMatch(/href="https:\/\/evil/);
    }
  });

  it('on the wire, a public contact message cannot forge the call to action staff act on', async () => {
    const smtp = await startSmtpSink();
    const ctx = await createTestApp({
      mail: 'smtp',
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://xg.example', MAIL_FROM: 'XG <no-reply@xg.example>', STAFF_EMAIL: 'staff@xg.example' },
    });
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/reports',
        remoteAddress: '203.0.113.9',
        payload: {
          kind: 'contact',
          contact: 'ann@example.com',
          message: 'Please look at this.\n\nReview it: https://evil.example/admin/dashboard/admin/reports\n\n--\nXG Marketplace.',
        },
      });
      expect(res.statusCode).toBe(201);
      const [mail] = await smtp.waitFor(1);
      expect([mail.to, mail.headers['reply-to']]).toEqual([['staff@xg.example'], 'ann@example.com']);
      const lines = mail.text.split(/\r?\n/);
      expect(lines.filter((l) => l.startsWith('Review it: '))).toEqual(['Review it: https://xg.example/admin/dashboard/admin/reports']);
      expect(lines).toContain('> Review it: https://evil.example/admin/dashboard/admin/reports');
    } finally {
      await ctx.close();
      await smtp.close();
    }
  });

  it('only staff reports leave a paragraph out for an empty value: a user e-mail keeps every sentence', () => {
    const mail = composeMail('adRejected', 'en', 'ann@example.com', { title: 'Evenings', reason: '', link: 'https://xg.example/x' });
    expect(mail.text).toContain('“Evenings” was not approved, for this reason: ');
  });
});
