import type { TFunction } from 'i18next';

type Params = Readonly<Record<string, string | number>>;
/** contract/api/common.ts Said, as a valtio snapshot hands it over (read-only). */
export interface SaidView {
  readonly code: string;
  readonly params?: Params;
  readonly detail?: string;
  readonly parts?: readonly { readonly code: string; readonly params?: Params; readonly detail?: string }[];
}

const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);

/**
 * An operator diagnostic (a health check's outcome, a payment server problem, a cron run's report) in the page's
 * language: its code's sentence (admin locale, says.<code>) with its params, then its parts (a
 * cache each), then the text another server sent, as it came. A code this client does not know
 * falls back to the server's English words.
 */
export function sayIt(t: TFunction, said: SaidView, english: string, lang: string): string {
  const word = (code: string, params: Params = {}) => {
    const values: Record<string, string | number> = { ...params };
    if (typeof values.cache === 'string') values.cache = t(`admin:says.caches.${values.cache}`, { defaultValue: values.cache });
    // A health check named in a cron run's report, and how it went, as the health page words them.
    if (typeof values.check === 'string') values.check = t(`admin:healthCheck.names.${values.check}`, { defaultValue: values.check });
    if (typeof values.status === 'string') values.status = t(`admin:healthCheck.statuses.${values.status}`, { defaultValue: values.status });
    return t(`admin:says.${code}`, { ...values, defaultValue: '' });
  };
  const p = said.params ?? {};
  const head = word(said.code, p);
  if (!head) return english;
  const out = [head];
  if (said.parts?.length) {
    const parts = said.parts.map((part) => {
      const text = word(part.code, part.params) || part.code;
      return part.detail ? sentence(`${text} ${t('admin:says.detail', { detail: part.detail })}`) : text;
    });
    // Whole sentences follow one another; phrases (a cache each) make one sentence.
    out.push(parts.every((p) => p.endsWith('.')) ? parts.join(' ') : sentence(parts.join('; ')));
  }
  if (typeof p.lastWebhookAt === 'string') out.push(t('admin:says.lastWebhook', { at: new Date(p.lastWebhookAt).toLocaleString(lang) }));
  if (p.slow !== undefined) out.push(t('admin:says.slow', { slow: p.slow }));
  if (said.detail) out.push(t('admin:says.detail', { detail: said.detail }));
  return out.join(' ');
}
