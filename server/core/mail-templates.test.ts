import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeMail, MAIL_LOCALES, TEMPLATES, utcMoment } from './mail-templates.ts';

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
    expect(mail.html).toContain('<p>First line.<br>&#60;b&#62;second&#60;/b&#62; line {link}</p>');
    expect(mail.text).toContain('First line.\n<b>second</b> line {link}');
    expect(mail.text).not.toMatch(/^Ad: /m);
    expect(mail.text).toContain('Contact: ann@example.com');
  });

  it('only staff reports leave a paragraph out for an empty value: a user e-mail keeps every sentence', () => {
    const mail = composeMail('adRejected', 'en', 'ann@example.com', { title: 'Evenings', reason: '', link: 'https://xg.example/x' });
    expect(mail.text).toContain('“Evenings” was not approved, for this reason: ');
  });
});
