import fs from 'node:fs';
import path from 'node:path';
import { createInstance, type TFunction } from 'i18next';
import type { HealthCheck } from '../../../contract/api/health.ts';
import { sayIt } from '../../../src/lib/said.ts';
import { MAIL_LOCALES, type MailLocale } from '../../core/mail-templates.ts';

// A health check as the staff e-mail words it, in the reader's language: the health page's own
// sentences (admin locale: healthCheck.names.<check>, says.<code>), worded by the same sayIt, so the
// e-mail and the page say the same thing. Read once, at the first e-mail.

const LOCALES_DIR = path.resolve(import.meta.dirname, '../../../src/i18n/locales');

let words: Map<MailLocale, TFunction> | null = null;

function translators(): Map<MailLocale, TFunction> {
  if (words) return words;
  const resources = Object.fromEntries(
    MAIL_LOCALES.map((l) => [l, { admin: JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, l, 'admin.json'), 'utf8')) as object }]),
  );
  const i18n = createInstance();
  void i18n.init({ resources, lng: 'en', fallbackLng: 'en', ns: ['admin'], defaultNS: 'admin', interpolation: { escapeValue: false }, initAsync: false });
  words = new Map(MAIL_LOCALES.map((l) => [l, i18n.getFixedT(l, 'admin')]));
  return words;
}

/** The check's name, as the health page names it ("Disk space"). */
export function checkName(name: string, locale: MailLocale): string {
  return translators().get(locale)!(`healthCheck.names.${name}`, { defaultValue: name });
}

/** What the check says, as the health page words it; the server's English when it has no code. */
export function checkWords(check: HealthCheck, locale: MailLocale): string {
  if (!check.says) return check.message;
  return sayIt(translators().get(locale)!, check.says, check.message, locale);
}
