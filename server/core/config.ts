import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { loadOrCreateSecrets } from './secrets.ts';
import { ERRORS } from '../../contract/errors/index.ts';
import { RULE_CODES, checkEmail, checkPassword, normalizeEmail, type RuleKey } from '../../contract/rules.ts';

/** One validated, frozen configuration object, read from the environment once at start. */
export interface Config {
  nodeEnv: string;
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  jwtSecret: string;
  sessionDays: number;
  smtpUrl: string | null;
  mailFrom: string;
  btcpay: { url: string | null; storeId: string | null; apiKey: string | null; webhookSecret: string };
  textbeltUrl: string;
  /** Which proxies to believe about the client's address (TRUST_PROXY): false (none), or their addresses ('loopback' for 1). */
  trustProxy: string | false;
  /** The sandbox payment provider's pause between "payment received" and "settled" (SANDBOX_SETTLE_MS; 0 in tests). */
  sandboxSettleMs: number;
  masterEmail: string | null;
  masterPassword: string | null;
  staffEmail: string | null;
  /** Seeds states and cities on first start (tests turn this off and seed a template once). */
  seedLocations: boolean;
  /** Runs in-process cron jobs (tests drive jobs by hand). */
  cron: boolean;
  logLevel: string;
  /** Memory for the caches of answers and rendered pages, in MB (CACHE_MB; shared out by cacheBudgets()). */
  cacheMb: number;
  /** Where generated secrets live when JWT_SECRET / BTCPAY_WEBHOOK_SECRET are not set; null when both are set. */
  secretsFile: string | null;
  /** True on the start that generated them (logged once). */
  secretsCreated: boolean;
}

export class ConfigError extends Error {}

/** CACHE_MB when not set: 24 MB of API answers, 16 of pages, 12 of search match lists, 3 of the cards searches show, 4 of parsed values, 1 of missing pages (cacheBudgets()). */
export const DEFAULT_CACHE_MB = 60;

/** A URL's host as an address's domain: an IP address as RFC 5321's literal ([127.0.0.1], [IPv6:::1]). */
function mailDomain(hostname: string): string {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const v = net.isIP(bare);
  return v === 4 ? `[${bare}]` : v === 6 ? `[IPv6:${bare}]` : hostname;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const problems: string[] = [];
  const nodeEnv = env.NODE_ENV ?? 'development';
  const isProduction = nodeEnv === 'production';

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    // Digits only: Number() would also read 0x1F90, 1e3 or 80.0, and serve on a port nobody wrote.
    const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const str = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  /** A switch written 0 or 1: a "false", "off" or "no" would otherwise silently mean on. */
  const flag = (name: string, fallback: boolean): boolean => {
    const v = str(name);
    if (v === null) return fallback;
    if (v !== '0' && v !== '1') problems.push(`${name} must be 0 or 1 (got "${v}")`);
    return v === '1' || (v !== '0' && fallback);
  };
  /** A URL of one of `protocols`; a bad one is named, with its value unless it may hold credentials. */
  const url = (name: string, protocols: readonly string[] = ['http', 'https'], credentials = false): string | null => {
    const v = str(name);
    if (v === null) return null;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol.replace(/:$/, ''))) throw new Error('protocol');
      return v.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} must be a ${protocols.join(':// or ')}:// URL${credentials ? '' : ` (got "${v}")`}`);
      return null;
    }
  };

  const port = int('PORT', 3000, 0, 65535);
  const host = str('HOST') ?? '0.0.0.0';
  const dataDir = path.resolve(str('DATA_DIR') ?? './data');
  const givenPublicUrl = url('PUBLIC_URL');
  let publicUrl = `http://localhost:${port}`;
  if (givenPublicUrl !== null) {
    const u = new URL(givenPublicUrl);
    // Every link is `${publicUrl}${path}`: a query or fragment would land in the middle of each one,
    // and credentials would be mailed to every user. The value is not echoed: it may hold a password.
    if (/[?#]/.test(givenPublicUrl) || /^[a-z]+:\/\/[^/]*@/i.test(givenPublicUrl)) {
      problems.push('PUBLIC_URL must be the bare address visitors use, without a query, fragment or credentials (e.g. https://example.com)');
    } else if (u.pathname !== '/') {
      // The app is served at / (the build's /assets/…, every page route, the BTCPay webhook): links
      // under a path would reach pages it does not answer.
      problems.push(`PUBLIC_URL must be the address of the site's root, without a path: the app is served at / (got "${givenPublicUrl}")`);
    }
    // As the URL reads it (lower-case scheme and host, no default port): every https test is
    // publicUrl.startsWith('https:'), so HTTPS://… would otherwise lose HSTS and Secure cookies.
    publicUrl = u.origin;
  }
  // Every link in an e-mail, every canonical URL and the BTCPay webhook's address start with it.
  if (isProduction && str('PUBLIC_URL') === null) problems.push('PUBLIC_URL is required in production (the address visitors use, e.g. https://example.com)');
  const sessionDays = int('SESSION_DAYS', 30, 1, 365);
  const cacheMb = int('CACHE_MB', DEFAULT_CACHE_MB, 4, 65_536);
  const sandboxSettleMs = int('SANDBOX_SETTLE_MS', nodeEnv === 'test' ? 0 : 1500, 0, 600_000);
  const smtpUrl = url('SMTP_URL', ['smtp', 'smtps'], true);
  const textbeltUrl = url('TEXTBELT_URL') ?? 'https://textbelt.com';
  const trustProxy = proxies(str('TRUST_PROXY'), problems);
  const seedLocations = flag('SEED_LOCATIONS', true);
  const cron = flag('CRON', true);
  const logLevel = str('LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info');
  // Checked here: pino would refuse it only inside buildApp, with a stack trace that names no setting.
  const levels = [...Object.keys(pino.levels.values), 'silent'];
  if (!levels.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${levels.join(', ')} (got "${logLevel}")`);
  const dataDirProblem = checkDataDir(dataDir);
  if (dataDirProblem) problems.push(dataDirProblem);

  let jwtSecret = str('JWT_SECRET');
  if (jwtSecret === null) {
    if (isProduction) problems.push('JWT_SECRET is required in production (32+ random characters)');
  } else if (jwtSecret.length < 32) {
    problems.push('JWT_SECRET must be at least 32 characters');
  }
  let webhookSecret = str('BTCPAY_WEBHOOK_SECRET');

  const btcpayUrl = url('BTCPAY_URL');
  const btcpay = {
    url: btcpayUrl,
    storeId: str('BTCPAY_STORE_ID'),
    apiKey: str('BTCPAY_API_KEY'),
    webhookSecret: '',
  };
  if (btcpayUrl) {
    if (!btcpay.storeId) problems.push('BTCPAY_STORE_ID is required when BTCPAY_URL is set');
    if (!btcpay.apiKey) problems.push('BTCPAY_API_KEY is required when BTCPAY_URL is set');
    if (!str('BTCPAY_WEBHOOK_SECRET')) problems.push('BTCPAY_WEBHOOK_SECRET is required when BTCPAY_URL is set');
  } else if (isProduction) {
    problems.push('BTCPAY_URL, BTCPAY_STORE_ID, BTCPAY_API_KEY and BTCPAY_WEBHOOK_SECRET are required in production (the sandbox payment provider is refused)');
  } else if (btcpay.storeId || btcpay.apiKey) {
    // A store and key without the server's address would silently run the sandbox, where staff may
    // simulate payments. BTCPAY_WEBHOOK_SECRET alone is fine: the sandbox's own webhooks use it.
    problems.push('BTCPAY_URL is required when BTCPAY_STORE_ID or BTCPAY_API_KEY is set (without it the sandbox payment provider would be used)');
  }

  // The accounts' own rules (contract/rules.ts), checked here: a bad one would pass this and only
  // fail on the first start, in ensureMaster, without naming the setting.
  const rule = (name: string, key: RuleKey | null, shown?: string) => {
    if (key) problems.push(`${name}: ${ERRORS[RULE_CODES[key]].replace(/\.$/, '')}${shown === undefined ? '' : ` (got "${shown}")`}`);
  };
  const email = (name: string): string | null => {
    const v = str(name);
    if (v === null) return null;
    const normal = normalizeEmail(v);
    rule(name, checkEmail(normal), v);
    return normal;
  };
  const masterEmail = email('MASTER_EMAIL');
  const mailFrom = sender(str('MAIL_FROM'), rule);
  const masterPassword = str('MASTER_PASSWORD');
  const staffEmail = email('STAFF_EMAIL');
  if ((masterEmail === null) !== (masterPassword === null)) problems.push('MASTER_EMAIL and MASTER_PASSWORD go together');
  if (masterPassword !== null) rule('MASTER_PASSWORD', checkPassword(masterPassword, masterEmail ?? undefined)); // never echoed

  if (problems.length) throw new ConfigError(`Invalid configuration:\n - ${problems.join('\n - ')}`);

  // Not set by the operator (development, or the sandbox's own webhooks): generated once, kept in DATA_DIR.
  let secretsFile: string | null = null;
  let secretsCreated = false;
  if (jwtSecret === null || webhookSecret === null) {
    let generated;
    try {
      generated = loadOrCreateSecrets(dataDir);
    } catch (e) {
      // A secrets.json that is not JSON, or one the server may not read: the operator's to mend.
      throw new ConfigError(`Invalid configuration:\n - DATA_DIR: ${(e as Error).message}`, { cause: e });
    }
    jwtSecret ??= generated.secrets.jwtSecret;
    webhookSecret ??= generated.secrets.webhookSecret;
    secretsFile = generated.file;
    secretsCreated = generated.created;
  }
  btcpay.webhookSecret = webhookSecret;

  return Object.freeze({
    nodeEnv,
    isProduction,
    port,
    host,
    dataDir,
    publicUrl,
    jwtSecret,
    sessionDays,
    smtpUrl,
    // On the site's own domain: a sender (and Message-ID, which nodemailer takes from it) at localhost
    // cannot pass SPF, DKIM or DMARC, so reset links and codes would land in spam or be refused.
    mailFrom: mailFrom ?? `XG Marketplace <no-reply@${mailDomain(new URL(publicUrl).hostname)}>`,
    btcpay: Object.freeze(btcpay),
    textbeltUrl,
    trustProxy,
    sandboxSettleMs,
    masterEmail,
    masterPassword,
    staffEmail: staffEmail ?? masterEmail,
    seedLocations,
    cron,
    logLevel,
    cacheMb,
    secretsFile,
    secretsCreated,
  });
}

/**
 * MAIL_FROM, kept as written: `addr` or `Name <addr>`, its address under the accounts' rules (as
 * MASTER_EMAIL's). A name alone or an address without a domain would send every reset link and
 * code without a sender, or have the relay refuse them, for as long as the server runs.
 */
function sender(v: string | null, rule: (name: string, key: RuleKey | null, shown?: string) => void): string | null {
  if (v === null) return null;
  const m = /^[^<>]*<([^<>]*)>$/.exec(v) ?? /^([^<>]*)$/.exec(v);
  rule('MAIL_FROM', m ? checkEmail(normalizeEmail(m[1])) : 'emailInvalid', v);
  return v;
}

/** What is wrong with DATA_DIR, as the start names it, or null; the scripts that read DATA_DIR themselves (seed-locations, restore) ask it too. */
export function checkDataDir(dir: string): string | null {
  const why = unusableFolder(dir);
  return why && `DATA_DIR must be a folder the server can write to: ${why}`;
}

/**
 * Why DATA_DIR cannot hold the data, or null. A folder not made yet is made at start, so the
 * nearest one that exists must let this user write into it (a file, or a read-only or foreign
 * folder, would fail later with a raw ENOTDIR or EACCES and a stack trace).
 */
function unusableFolder(dir: string): string | null {
  let at = dir;
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  if (!fs.statSync(at).isDirectory()) return `${at} is not a folder`;
  try {
    fs.accessSync(at, fs.constants.W_OK | fs.constants.X_OK);
    return null;
  } catch {
    return `${at} is not writable by this user`;
  }
}

/**
 * TRUST_PROXY: which proxies to believe about the client's address (X-Forwarded-For) and protocol.
 * 0 or unset: none, the socket's peer is the client. 1: a proxy on this machine (loopback). Else a
 * comma-separated list of the proxies' addresses or CIDR ranges (or loopback, linklocal,
 * uniquelocal). The client is then the nearest address in X-Forwarded-For that is not one of them:
 * an entry the client wrote itself further left is never believed (as it would be if every hop
 * were trusted), and a client that reaches the server directly is never a proxy.
 */
function proxies(v: string | null, problems: string[]): string | false {
  if (v === null || v === '0') return false;
  if (v === '1') return 'loopback';
  const list = v.split(',').map((x) => x.trim());
  if (list.every(proxyEntry)) return list.join(',');
  problems.push(`TRUST_PROXY must be 0, 1 (a proxy on this machine) or a comma-separated list of proxy addresses (got "${v}")`);
  return false;
}

/**
 * One TRUST_PROXY entry as Fastify's proxy-addr compiles it: a named range, or an IPv4/IPv6
 * address with an optional prefix length of 1 to 32 / 128 (proxy-addr refuses /0, which would
 * believe every client's X-Forwarded-For anyway). Anything else would pass here and then stop the
 * app's build with proxy-addr's bare TypeError, which names no setting.
 */
function proxyEntry(entry: string): boolean {
  if (entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal') return true;
  const m = /^([^/]+)(?:\/(\d+))?$/.exec(entry);
  const family = m ? net.isIP(m[1]) : 0;
  if (!m || !family) return false;
  const prefix = m[2] === undefined ? null : Number(m[2]);
  return prefix === null || (prefix >= 1 && prefix <= (family === 4 ? 32 : 128));
}
