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
 * The params a check's codes send as numbers, by the code's check: sizes in bytes (a disk's in GB
 * from 1 GB, a cache's in MB) and shares as fractions (0.053), written here the reader's way
 * ('74,6 GB', '5,3 %'); a count with its digits grouped; durations in milliseconds, written in ms
 * under a second and in seconds from one ('1,5 s'). A record stored before they were numbers holds
 * the server's English text, shown as it came.
 */
type Measure = 'disk' | 'memory' | 'share' | 'count' | 'duration';
const MEASURES: Record<string, Record<string, Measure>> = {
  disk: { free: 'disk', total: 'disk', percent: 'share', limit: 'share' },
  memory: { rss: 'memory', heap: 'memory', used: 'memory', max: 'memory', hit: 'share', limit: 'share', lookups: 'count' },
  database: { took: 'duration', limit: 'duration' },
  cron: { limit: 'duration' },
};
const GB = 1024 ** 3;
const MB = 1024 ** 2;
const fixed = (digits: number) => ({ minimumFractionDigits: digits, maximumFractionDigits: digits });

function measured(kind: Measure, n: number, lang: string): string {
  if (kind === 'count') return new Intl.NumberFormat(lang).format(n);
  // The server's formatMs, with the reader's decimal mark: '12 ms', '1.5 s' / '1,5 s' (SI symbols in every language).
  if (kind === 'duration') {
    return n < 1000 ? `${new Intl.NumberFormat(lang).format(Math.round(n))} ms` : `${new Intl.NumberFormat(lang, fixed(n % 1000 ? 1 : 0)).format(n / 1000)} s`;
  }
  if (kind === 'share') return new Intl.NumberFormat(lang, { style: 'percent', ...fixed(n < 0.1 ? 1 : 0) }).format(n);
  const unit = (value: number, name: 'gigabyte' | 'megabyte', digits: number) =>
    new Intl.NumberFormat(lang, { style: 'unit', unit: name, unitDisplay: 'short', ...fixed(digits) }).format(value);
  if (kind === 'disk' && n >= GB) return unit(n / GB, 'gigabyte', 1);
  if (kind === 'disk') return unit(Math.round(n / MB), 'megabyte', 0);
  return unit(n / MB, 'megabyte', n < 10 * MB ? 1 : 0);
}

/**
 * An operator diagnostic (a health check's outcome, a payment server problem, a cron run's report) in the page's
 * language: its code's sentence (admin locale, says.<code>) with its params, then its parts (a
 * cache each), then the text another server sent, as it came. A code this client does not know
 * falls back to the server's English words.
 */
export function sayIt(t: TFunction, said: SaidView, english: string, lang: string): string {
  const word = (code: string, params: Params = {}) => {
    const values: Record<string, string | number> = { ...params };
    const measures = MEASURES[code.split('.')[0]] ?? {};
    for (const [name, kind] of Object.entries(measures)) {
      const n = values[name];
      if (typeof n === 'number') values[name] = measured(kind, n, lang);
    }
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
  if (p.slow !== undefined) out.push(t('admin:says.slow', { slow: typeof p.slow === 'number' ? measured('duration', p.slow, lang) : p.slow }));
  if (said.detail) out.push(t('admin:says.detail', { detail: said.detail }));
  return out.join(' ');
}
