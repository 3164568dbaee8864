import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { Database_, Db } from './db.ts';
import type { Mailer } from './mailer.ts';
import type { PasswordHasher } from './passwords.ts';
import type { Load } from './load.ts';
import type { Hub } from './realtime.ts';
import type { Services } from '../services.ts';

/** Product limits (PRODUCT §11). Tests may raise them; the rate-limit tests use the real values. */
export interface Limits {
  /** Sign-in and register attempts per IP, and per (account, IP), in authWindowMs. */
  authAttemptsPerWindow: number;
  authWindowMs: number;
  /** Sign-in attempts per account from all IPs in an hour: high, so that nobody can lock an owner out. */
  authAccountPerHour: number;
  /** Avatar uploads per user per hour. */
  avatarUpdatesPerHour: number;
  /**
   * WebSocket upgrades per user per minute (and 20 times as many per IP, a backstop that stays
   * above a carrier's NAT). A page opens one and the client backs off between retries, so this is
   * far above real use; it stops a script from churning sockets (each handshake loads the session
   * and evicts one of the user's sockets).
   */
  socketHandshakesPerMinute: number;
  /** Images decoded and re-encoded at once (the rest wait in a queue). */
  imageConcurrency: number;
  adsPerDay: number;
  reportsPerHour: number;
  /** Verification texts asked for per IP (IPv6 by its /64) an hour, whatever the accounts and numbers: each costs the operator. */
  phoneCodesPerIpPerHour: number;
  /** @fastify/rate-limit's general ceiling per IP per minute on /api (0 turns it off). */
  apiPerMinute: number;
  /**
   * Sitemap files (and the index) per IP per minute: each is built on demand (tens of
   * milliseconds at a million ads), crawlers fetch a few a minute.
   */
  sitemapPerMinute: number;
  /** How long Textbelt may take to answer a request (a slow service may still send what it got). */
  textbeltTimeoutMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  authAttemptsPerWindow: 10,
  authWindowMs: 15 * 60 * 1000,
  authAccountPerHour: 100,
  avatarUpdatesPerHour: 10,
  socketHandshakesPerMinute: 30,
  imageConcurrency: 2,
  adsPerDay: 20,
  reportsPerHour: 10,
  phoneCodesPerIpPerHour: 10,
  apiPerMinute: 1200,
  sitemapPerMinute: 60,
  textbeltTimeoutMs: 10_000,
};

/** Everything a module may use, injected through buildApp (no module-level singletons). */
export interface AppDeps {
  config: Readonly<Config>;
  database: Database_;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  hasher: PasswordHasher;
  hub: Hub;
  limits: Limits;
  /** Whether the event loop is saturated now (core/load.ts). */
  load: Load;
  log: FastifyBaseLogger;
  /** Absolute path of the built client (dist/); null when not built. */
  distDir: string | null;
  /** Every service, built once by buildApp (server/services.ts). */
  services: Services;
}
