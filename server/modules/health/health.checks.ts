import fs from 'node:fs';
import type { HealthStatus } from '../../../contract/api/health.ts';
import type { PaymentServerHealth } from '../../../contract/api/payments.ts';
import type { Said } from '../../../contract/api/common.ts';
import type { Mailer } from '../../core/mailer.ts';
import type { SmsStatus } from '../sms/sms.gateway.ts';
import type { CacheUse } from '../listings/listings.cache.ts';

// What each check reports, as pure functions of what its dependency said (tested with hand-made
// values), and the checks that ask the dependencies (tested against real local servers).

/** A check's outcome: its status, in plain English (logs, the staff e-mail), and as a code the health page words in its language. */
export interface CheckOutcome {
  status: HealthStatus;
  message: string;
  says: Said;
}

type Params = NonNullable<Said['params']>;
const outcome = (status: HealthStatus, message: string, code: string, params?: Params, detail?: string): CheckOutcome => ({
  status,
  message,
  says: { code, ...(params ? { params } : {}), ...(detail ? { detail } : {}) },
});

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

// The codes' params are numbers (sizes in bytes, shares as fractions), written the reader's way
// by whoever words them (src/lib/said.ts: the page, the alert e-mail); the English words are the logs'.
export function diskOutcome(freeBytes: number, totalBytes: number, t: DiskThresholds): CheckOutcome {
  const free = totalBytes > 0 ? freeBytes / totalBytes : 0;
  const p = { free: freeBytes, total: totalBytes, percent: free };
  const words = `${size(freeBytes)} free of ${size(totalBytes)} (${percent(free)})`;
  if (free < t.failingBelow) {
    return outcome('failing', `${words}: under ${percent(t.failingBelow)}, writes will soon fail`, 'disk.failing', { ...p, limit: t.failingBelow });
  }
  if (free < t.degradedBelow) return outcome('degraded', `${words}: under ${percent(t.degradedBelow)}`, 'disk.low', { ...p, limit: t.degradedBelow });
  return outcome('ok', words, 'disk.ok', p);
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
  const isShort = ({ c, lookups }: (typeof caches)[number]) => {
    const full = c.bytes >= CACHE_FULL * c.maxBytes || c.entries >= CACHE_FULL * c.maxEntries;
    return full && lookups >= CACHE_MIN_LOOKUPS && c.hits < CACHE_LOW_HITS * lookups;
  };
  const parts = caches.map(({ c, lookups }) => {
    const served = lookups ? `${percent(c.hits / lookups)} of ${lookups.toLocaleString('en-US')} lookup${lookups === 1 ? '' : 's'} hit` : 'no lookups';
    const away = c.refused ? `, ${c.refused.toLocaleString('en-US')} new entr${c.refused === 1 ? 'y' : 'ies'} turned away` : '';
    return `${label(c)} ${served}${away}, ${mb(c.bytes)} of ${mb(c.maxBytes)}`;
  });
  // Each cache as a coded sentence (its name is worded by the page too); sizes in bytes, shares as fractions.
  const said = caches.map((x) => {
    const params = { cache: x.c.name, used: x.c.bytes, max: x.c.maxBytes };
    if (!x.lookups) return { code: 'memory.cache_idle', params };
    const served = { ...params, hit: x.c.hits / x.lookups, lookups: x.lookups };
    const code = isShort(x) ? 'memory.cache_short' : 'memory.cache';
    // Turned away by admission: kept out because what is kept was asked for more often (listings.frequency.ts).
    return x.c.refused ? { code: `${code}_refusing`, params: { ...served, count: x.c.refused } } : { code, params: served };
  });
  const p = { rss: m.rssBytes, heap: m.heapUsedBytes };
  const words = `RSS ${mb(m.rssBytes)}, JavaScript heap ${mb(m.heapUsedBytes)}; caches since the last check: ${parts.join('; ')}`;
  const short = caches.filter(isShort);
  if (!short.length) return { status: 'ok', message: words, says: { code: 'memory.ok', params: p, parts: said } };
  const which = short.map(({ c }) => label(c)).join(' and ');
  return {
    status: 'degraded',
    message: `${words}: ${which} full and hitting under ${percent(CACHE_LOW_HITS)} of lookups; a larger CACHE_MB (now ${m.cacheMb}) would answer more from memory`,
    says: { code: 'memory.caches_short', params: { ...p, limit: CACHE_LOW_HITS, cacheMb: m.cacheMb }, parts: said },
  };
}

export function paymentServerOutcome(h: PaymentServerHealth): CheckOutcome {
  if (h.mode === 'sandbox') return outcome('ok', 'sandbox mode: no real payments (BTCPAY_URL is not set)', 'payment.sandbox');
  // The payments service says what is wrong in plain words ('ok' when nothing is), and as codes.
  const wrong = h.message && h.message !== 'ok';
  const said = (status: HealthStatus, fallback: string, code: string, params?: Params): CheckOutcome => {
    // The problem this check is named after lends it its detail; the others follow as parts.
    const detail = h.problems.find((p) => p.code === code)?.detail;
    const parts = h.problems
      .filter((p) => p.code !== code)
      .map(({ code: c, params: p, detail: d }) => ({ code: c, ...(p ? { params: p } : {}), ...(d ? { detail: d } : {}) }));
    return {
      status,
      message: wrong ? h.message : fallback,
      says: { code, ...(params ? { params } : {}), ...(detail ? { detail } : {}), ...(parts.length ? { parts } : {}) },
    };
  };
  const store = h.storeId ?? '?';
  if (!h.reachable) return said('failing', 'BTCPay Server is unreachable', 'payment.unreachable');
  // No server info or no store: no invoice can be made. A refused key only when BTCPay said so (401/403);
  // a 5xx (restarting, a proxy in front failing) is not a key to rotate.
  if (h.problems.some((p) => p.code === 'payment.key_refused')) return said('failing', 'BTCPay Server answered, but not to our API key', 'payment.key_refused');
  if (h.version === null || h.problems.some((p) => p.code === 'payment.store_unreadable')) {
    return said('failing', 'BTCPay Server answered, but the store could not be read', 'payment.store_unreadable');
  }
  if (!h.synchronized) {
    return said('degraded', `BTCPay Server ${h.version} is not synchronized with the Bitcoin network`, 'payment.not_synchronized', { version: h.version });
  }
  if (!h.webhookRegistered) {
    return said('degraded', `no webhook registered for store ${store}: payments are only seen when reconcile-invoices runs`, 'payment.no_webhook', { store });
  }
  const lastWebhook = h.lastWebhookAt ? `, last webhook ${h.lastWebhookAt}` : '';
  return outcome(
    'ok',
    `BTCPay Server ${h.version} synchronized, store ${store}, ${h.openInvoices} open invoice${h.openInvoices === 1 ? '' : 's'}${lastWebhook}`,
    'payment.ok',
    { version: h.version, store, count: h.openInvoices, ...(h.lastWebhookAt ? { lastWebhookAt: h.lastWebhookAt } : {}) },
  );
}

export function smsOutcome(s: SmsStatus): CheckOutcome {
  // Without a token the product works as designed (codes go to the outbox), so it is not a fault.
  if (!s.configured) return outcome('ok', 'no token: messages go to the outbox', 'sms.outbox');
  // What went wrong as a code the page words (sms.timeout, sms.http…); only Textbelt's own words are the detail.
  if (s.error) return { status: 'failing', message: `Textbelt: ${s.error}`, says: s.failure ?? { code: 'sms.error', detail: s.error } };
  if (s.quotaRemaining === null) return outcome('degraded', 'Textbelt did not say how many messages are left', 'sms.quota_unknown');
  if (s.quotaRemaining <= 0) return outcome('failing', 'no SMS left on the Textbelt key: phone codes cannot be sent', 'sms.empty');
  const left = `${s.quotaRemaining} SMS left`;
  if (s.quotaRemaining < SMS_LOW_QUOTA) {
    return outcome('degraded', `${left} (under ${SMS_LOW_QUOTA}): top up the Textbelt key`, 'sms.low', { count: s.quotaRemaining, limit: SMS_LOW_QUOTA });
  }
  return outcome('ok', left, 'sms.ok', { count: s.quotaRemaining });
}

/**
 * The mail transport: the SMTP server's greeting (and login, when SMTP_URL names a user), or the
 * outbox folder writable; then how the last message went, since a relay that wants AUTH or refuses
 * our sender greets verify() all the same.
 */
export async function checkSmtp(mailer: Mailer, smtpUrl: string | null): Promise<CheckOutcome> {
  let host = 'the SMTP server';
  let user = false;
  try {
    if (smtpUrl) {
      const url = new URL(smtpUrl);
      host = url.host; // never the credentials
      user = url.username !== ''; // nodemailer logs in only with a user: without one, verify() greets and stops
    }
  } catch {
    // keep the generic words
  }
  // With a user, the check logs in itself: verify() skips the login without a word when the server
  // offers no AUTH, and would be claimed as one.
  let offersLogin = true;
  if (mailer.kind === 'smtp' && user && smtpUrl) offersLogin = await greetAndLogIn(smtpUrl);
  else await mailer.verify();
  const last = mailer.lastSend?.();
  if (mailer.kind === 'outbox') {
    if (last && !last.ok) {
      const words = 'SMTP_URL is not set: the outbox folder is writable, but the last message could not be written';
      return outcome('degraded', last.error ? `${words}: ${last.error}` : words, 'smtp.outbox_last_send_failed', undefined, last.error ?? undefined);
    }
    return outcome('ok', 'SMTP_URL is not set: mail is written to the outbox folder, which is writable', 'smtp.outbox');
  }
  if (last && !last.ok) {
    const words = `${host} accepted the connection, but the last message could not be sent`;
    return outcome('degraded', last.error ? `${words}: ${last.error}` : words, 'smtp.last_send_failed', { host }, last.error ?? undefined);
  }
  if (!user) return outcome('ok', `${host} accepted the connection (SMTP_URL names no user, so no login was tried)`, 'smtp.ok_no_login', { host });
  if (!offersLogin) {
    // Port 25 of a relay instead of its submission port, or AUTH offered only after TLS it lacks:
    // mail goes out unauthenticated, refused as relaying or accepted only for local domains.
    return outcome(
      'degraded',
      `${host} accepted the connection but offers no login (AUTH): SMTP_URL names a user, yet mail is sent without logging in`,
      'smtp.no_auth',
      { host },
    );
  }
  return outcome('ok', `${host} accepted the connection and login`, 'smtp.ok', { host });
}

/**
 * Greets the SMTP server of `smtpUrl` (STARTTLS when offered, as the mailer does) and logs in as
 * its user: false when the server offers no AUTH. A refused login or connection throws (failing).
 */
async function greetAndLogIn(smtpUrl: string): Promise<boolean> {
  const [{ default: SMTPConnection }, { parseConnectionUrl }] = await Promise.all([import('nodemailer/lib/smtp-connection'), import('nodemailer/lib/shared')]);
  const { auth, ...options } = parseConnectionUrl(smtpUrl);
  // The mailer's limits (core/mailer.ts): the check's own time limit answers first anyway.
  const connection = new SMTPConnection({ ...options, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 });
  // An error or a hang-up, whenever it comes, ends the step under way (and never goes unhandled).
  let fail: (err: Error) => void = () => undefined;
  connection.on('error', (err: Error) => fail(err));
  connection.on('end', () => fail(new Error('Connection closed')));
  const step = (start: (done: (err?: Error | null) => void) => void) =>
    new Promise<void>((resolve, reject) => {
      fail = reject;
      start((err) => (err ? reject(err) : resolve()));
    });
  let said = false;
  try {
    await step((done) => connection.connect(done));
    if (connection.allowsAuth) await step((done) => connection.login(auth, done));
    said = true;
    return connection.allowsAuth;
  } finally {
    // QUIT after a whole conversation, as verify() leaves; else the socket is dropped.
    if (said) connection.quit();
    else connection.close();
  }
}

/** A failing outcome from whatever a check threw, in plain words. */
export function thrownOutcome(err: unknown): CheckOutcome {
  if (err instanceof CheckTimeout) return outcome('failing', err.message, 'check.timeout', { limit: err.limit });
  const words = err instanceof Error ? err.message : String(err);
  return words ? outcome('failing', words, 'check.failed', undefined, words) : outcome('failing', 'failed without a message', 'check.failed_silently');
}

/** A check without an answer in time; `limit` is that time in words ("10 s"). */
export class CheckTimeout extends Error {
  readonly limit: string;
  constructor(limit: string) {
    super(`no answer in ${limit}`);
    this.limit = limit;
  }
}

/** The check's answer, or a CheckTimeout after `ms` (the check is abandoned, not stopped). */
export async function withTimeout<T>(work: () => Promise<T> | T, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(work),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CheckTimeout(formatMs(ms))), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`;
}
