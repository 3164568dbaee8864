import fs from 'node:fs';
import type { HealthStatus } from '../../../contract/api/health.ts';
import type { PaymentServerHealth } from '../../../contract/api/payments.ts';
import type { Mailer } from '../../core/mailer.ts';
import type { SmsStatus } from '../sms/sms.service.ts';
import type { CacheUse } from '../listings/listings.cache.ts';

// What each check reports, as pure functions of what its dependency said (tested with hand-made
// values), and the checks that ask the dependencies (tested against real local servers).

export interface CheckOutcome {
  status: HealthStatus;
  message: string;
}

/** Free space of the data directory's volume, as a fraction of its size, under which the disk check degrades or fails. */
export interface DiskThresholds {
  degradedBelow: number;
  failingBelow: number;
}
export const DEFAULT_DISK_THRESHOLDS: DiskThresholds = { degradedBelow: 0.1, failingBelow: 0.02 };

/** SMS left on the Textbelt key under which the sms check degrades (0 fails). */
export const SMS_LOW_QUOTA = 50;

const GB = 1024 ** 3;
const size = (bytes: number) => (bytes >= GB ? `${(bytes / GB).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`);
const percent = (f: number) => `${(f * 100).toFixed(f < 0.1 ? 1 : 0)} %`;

export function diskOutcome(freeBytes: number, totalBytes: number, t: DiskThresholds): CheckOutcome {
  const free = totalBytes > 0 ? freeBytes / totalBytes : 0;
  const words = `${size(freeBytes)} free of ${size(totalBytes)} (${percent(free)})`;
  if (free < t.failingBelow) return { status: 'failing', message: `${words}: under ${percent(t.failingBelow)}, writes will soon fail` };
  if (free < t.degradedBelow) return { status: 'degraded', message: `${words}: under ${percent(t.degradedBelow)}` };
  return { status: 'ok', message: words };
}

/** The data directory's volume (statfs: blocks an unprivileged process may still use). */
export function checkDisk(dataDir: string, t: DiskThresholds): CheckOutcome {
  const s = fs.statfsSync(dataDir);
  return diskOutcome(s.bavail * s.bsize, s.blocks * s.bsize, t);
}

/**
 * When the memory check degrades: a cache at least this full (of its bytes or its entries) that
 * answered under CACHE_LOW_HITS of at least CACHE_MIN_LOOKUPS lookups since the last check is too
 * small for the traffic (at a million ads, the benchmark's city listings and mix with flips ran two
 * to three times as fast with CACHE_MB at 200 instead of 57: README, "Public reads").
 */
export const CACHE_FULL = 0.9;
export const CACHE_LOW_HITS = 0.5;
export const CACHE_MIN_LOOKUPS = 1000;

/** The caches' names for operators, in the order they are reported (the largest shares of CACHE_MB first). */
const CACHE_LABELS: Record<string, string> = {
  api: 'API answers',
  pages: 'pages',
  searches: 'search lists',
  values: 'parsed values',
  'missing-pages': 'missing pages',
};
const CACHE_ORDER = Object.keys(CACHE_LABELS);
const cacheRank = (c: CacheUse) => (CACHE_ORDER.includes(c.name) ? CACHE_ORDER.indexOf(c.name) : CACHE_ORDER.length);

const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(bytes < 10 * 1024 ** 2 ? 1 : 0)} MB`;

/** The server's memory, and how well each cache served since the last check (CACHE_MB is what an operator can change). */
export function memoryOutcome(m: { rssBytes: number; heapUsedBytes: number; cacheMb: number; caches: readonly CacheUse[] }): CheckOutcome {
  const label = (c: CacheUse) => CACHE_LABELS[c.name] ?? c.name;
  const caches = [...m.caches].sort((a, b) => cacheRank(a) - cacheRank(b)).map((c) => ({ c, lookups: c.hits + c.misses }));
  const parts = caches.map(({ c, lookups }) => {
    const served = lookups ? `${percent(c.hits / lookups)} of ${lookups.toLocaleString('en-US')} lookup${lookups === 1 ? '' : 's'} hit` : 'no lookups';
    return `${label(c)} ${served}, ${mb(c.bytes)} of ${mb(c.maxBytes)}`;
  });
  const words = `RSS ${mb(m.rssBytes)}, JavaScript heap ${mb(m.heapUsedBytes)}; caches since the last check: ${parts.join('; ')}`;
  const short = caches.filter(({ c, lookups }) => {
    const full = c.bytes >= CACHE_FULL * c.maxBytes || c.entries >= CACHE_FULL * c.maxEntries;
    return full && lookups >= CACHE_MIN_LOOKUPS && c.hits < CACHE_LOW_HITS * lookups;
  });
  if (!short.length) return { status: 'ok', message: words };
  const which = short.map(({ c }) => label(c)).join(' and ');
  return {
    status: 'degraded',
    message: `${words}: ${which} full and hitting under ${percent(CACHE_LOW_HITS)} of lookups; a larger CACHE_MB (now ${m.cacheMb}) would answer more from memory`,
  };
}

export function paymentServerOutcome(h: PaymentServerHealth): CheckOutcome {
  if (h.mode === 'sandbox') return { status: 'ok', message: 'sandbox mode: no real payments (BTCPAY_URL is not set)' };
  // The payments service says what is wrong in plain words; 'ok' when nothing is.
  const said = (fallback: string) => (h.message && h.message !== 'ok' ? h.message : fallback);
  if (!h.reachable) return { status: 'failing', message: said('BTCPay Server is unreachable') };
  // No server info: our API key was refused (or the store could not be read): no invoice can be made.
  if (h.version === null) return { status: 'failing', message: said('BTCPay Server answered, but not to our API key') };
  if (!h.synchronized) return { status: 'degraded', message: said(`BTCPay Server ${h.version} is not synchronized with the Bitcoin network`) };
  if (!h.webhookRegistered)
    return { status: 'degraded', message: said(`no webhook registered for store ${h.storeId ?? '?'}: payments are only seen when reconcile-invoices runs`) };
  const lastWebhook = h.lastWebhookAt ? `, last webhook ${h.lastWebhookAt}` : '';
  return {
    status: 'ok',
    message: `BTCPay Server ${h.version} synchronized, store ${h.storeId ?? '?'}, ${h.openInvoices} open invoice${h.openInvoices === 1 ? '' : 's'}${lastWebhook}`,
  };
}

export function smsOutcome(s: SmsStatus): CheckOutcome {
  // Without a token the product works as designed (codes go to the outbox), so it is not a fault.
  if (!s.configured) return { status: 'ok', message: 'no token: messages go to the outbox' };
  if (s.error) return { status: 'failing', message: `Textbelt: ${s.error}` };
  if (s.quotaRemaining === null) return { status: 'degraded', message: 'Textbelt did not say how many messages are left' };
  if (s.quotaRemaining <= 0) return { status: 'failing', message: 'no SMS left on the Textbelt key: phone codes cannot be sent' };
  const left = `${s.quotaRemaining} SMS left`;
  if (s.quotaRemaining < SMS_LOW_QUOTA) return { status: 'degraded', message: `${left} (under ${SMS_LOW_QUOTA}): top up the Textbelt key` };
  return { status: 'ok', message: left };
}

/** The mail transport: the SMTP server's greeting and login, or the outbox folder writable. */
export async function checkSmtp(mailer: Mailer, smtpUrl: string | null): Promise<CheckOutcome> {
  await mailer.verify();
  if (mailer.kind === 'outbox') return { status: 'ok', message: 'SMTP_URL is not set: mail is written to the outbox folder, which is writable' };
  let host = 'the SMTP server';
  try {
    if (smtpUrl) host = new URL(smtpUrl).host; // never the credentials
  } catch {
    // keep the generic words
  }
  return { status: 'ok', message: `${host} accepted the connection and login` };
}

/** A failing outcome from whatever a check threw, in plain words. */
export function thrownOutcome(err: unknown): CheckOutcome {
  const words = err instanceof Error ? err.message : String(err);
  return { status: 'failing', message: words || 'failed without a message' };
}

export class CheckTimeout extends Error {}

/** The check's answer, or a CheckTimeout after `ms` (the check is abandoned, not stopped). */
export async function withTimeout<T>(work: () => Promise<T> | T, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(work),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CheckTimeout(`no answer in ${formatMs(ms)}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`;
}
