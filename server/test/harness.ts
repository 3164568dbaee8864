import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../core/config.ts';
import { ManualClock } from '../core/clock.ts';
import { openDatabase } from '../core/db.ts';
import { migrate } from '../core/migrate.ts';
import type { MailMessage, Mailer } from '../core/mailer.ts';
import { createPasswordHasher } from '../core/passwords.ts';
import type { Limits } from '../core/deps.ts';
import { NEVER_BUSY, type Load } from '../core/load.ts';
import { buildApp, type App } from '../app.ts';
import { seedLocations } from '../modules/locations/locations.seed.ts';
import type { StaffRole, UserStatus } from '../core/schema.ts';

// Each test owns a fresh database: a file copied from a template that was migrated and seeded
// once per run (template.global.ts; without it, once per test file). Real SQLite, real HTTP
// through app.inject(), no mocks of our own code.

let template: Buffer | null = null;
function templateDb(): Buffer {
  const file = template ? undefined : inject('templateDbFile');
  if (file) template = fs.readFileSync(file);
  if (!template) {
    const t = openDatabase(':memory:');
    migrate(t.sqlite);
    seedLocations(t.sqlite);
    template = t.sqlite.serialize();
    t.sqlite.close();
  }
  return template;
}

/** Captures mail in memory (the SMTP transport has its own test against a real SMTP server). */
export class MemoryMailer implements Mailer {
  readonly kind = 'outbox' as const;
  readonly sent: MailMessage[] = [];
  async send(m: MailMessage) {
    this.sent.push(m);
  }
  async verify() {}
}

export interface TestContext {
  app: App;
  clock: ManualClock;
  mailer: MemoryMailer;
  config: Readonly<Config>;
  dataDir: string;
  close(): Promise<void>;
}

export async function createTestApp(
  opts: {
    env?: Record<string, string>;
    limits?: Partial<Limits>;
    distDir?: string | null;
    /** 'smtp': the app's own mailer (SMTP_URL in env), to assert on a real SMTP server; ctx.mailer stays empty. */
    mail?: 'memory' | 'smtp';
    /** The caches' memory in MB below CACHE_MB's floor of 4 (a fraction: caches that evict all the time). */
    cacheMb?: number;
    /** Fastify's logger options (default: none), to read what is logged. */
    logger?: object;
    /** The event loop's load gauge (default: never busy, whatever the tests' own work). */
    load?: Load;
  } = {},
): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-test-'));
  const loaded = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SEED_LOCATIONS: '0', CRON: '0', ...opts.env });
  const config = opts.cacheMb === undefined ? loaded : { ...loaded, cacheMb: opts.cacheMb };
  // A file, not an in-memory copy: public reads go through their own read-only connection
  // (core/db.ts), which only a file can give them.
  const file = path.join(dataDir, 'xg.sqlite');
  fs.writeFileSync(file, templateDb());
  const database = openDatabase(file);
  const clock = new ManualClock();
  const mailer = new MemoryMailer();
  const app = await buildApp({
    config,
    database,
    clock,
    mailer: opts.mail === 'smtp' ? undefined : mailer,
    hasher: createPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
    limits: {
      authAttemptsPerWindow: 1000,
      authAccountPerHour: 1000,
      avatarUpdatesPerHour: 1000,
      socketHandshakesPerMinute: 1000,
      reportsPerHour: 1000,
      adsPerDay: 1000,
      apiPerMinute: 0,
      sitemapPerMinute: 1000,
      ...opts.limits,
    },
    distDir: opts.distDir ?? null,
    load: opts.load ?? NEVER_BUSY,
    logger: opts.logger ?? false,
  });
  await app.ready();
  playSameOriginBrowser(app);
  return {
    app,
    clock,
    mailer,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * State changes are refused unless the request says it comes from our own pages (core/auth.ts
 * isSameOrigin), as every browser does. Tests speak as our own client in a browser: a request that
 * names none of Sec-Fetch-Site, Origin or Referer gets `Sec-Fetch-Site: same-origin`. The
 * cross-site tests send their own headers; `rawInject` sends exactly what it is given.
 */
function playSameOriginBrowser(app: App): void {
  const inject = app.inject.bind(app) as (opts: InjectOptions) => Promise<LightMyRequestResponse>;
  (app as unknown as { rawInject: typeof inject }).rawInject = inject;
  app.inject = ((opts: InjectOptions) => {
    const headers = { ...(opts.headers as Record<string, string> | undefined) };
    const named = Object.keys(headers).map((k) => k.toLowerCase());
    if (!named.some((k) => k === 'sec-fetch-site' || k === 'origin' || k === 'referer')) headers['sec-fetch-site'] = 'same-origin';
    return inject({ ...opts, headers });
  }) as App['inject'];
}

/** Sends a request exactly as given, without the same-origin header the harness adds. */
export function rawInject(app: App, opts: InjectOptions): Promise<LightMyRequestResponse> {
  return (app as unknown as { rawInject: (o: InjectOptions) => Promise<LightMyRequestResponse> }).rawInject(opts);
}

/** The XG.TOKEN cookie of a response, as a Cookie header value. */
export function cookieOf(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'XG.TOKEN');
  if (!c) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return `XG.TOKEN=${c.value}`;
}

let seq = 0;
export interface TestUser {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

/** Registers a user through the API, then sets roles and status directly (as a master would). */
export async function makeUser(
  ctx: TestContext,
  opts: { roles?: StaffRole[]; status?: UserStatus; email?: string; password?: string; nickname?: string } = {},
): Promise<TestUser> {
  const n = ++seq;
  const email = opts.email ?? `user${n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = opts.password ?? 'correct horse battery';
  // Each user registers from an address of its own (registering is a sign-in, and accounts sharing
  // one are related on the staff screens): 10.x.y.z from the sequence number.
  const remoteAddress = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress,
    payload: { email, password, nickname: opts.nickname ?? `user_${n}` },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const id = res.json().id as string;
  const db = ctx.app.deps.db;
  if (opts.roles?.length) {
    await db
      .insertInto('user_roles')
      .values(opts.roles.filter((r) => r !== 'PROVIDER_USER').map((role) => ({ user_id: id, role })))
      .execute();
  }
  if (opts.status) {
    const approvedAt = opts.status === 'approved' ? ctx.clock.now().toISOString() : null; // as a master's approval records it
    await db.updateTable('users').set({ status: opts.status, approved_at: approvedAt }).where('id', '=', id).execute();
  }
  return { id, email, password, cookie: cookieOf(res) };
}

export const asAdmin = (ctx: TestContext) => makeUser(ctx, { roles: ['ADMIN_USER'], status: 'approved' });
export const asMaster = (ctx: TestContext) => makeUser(ctx, { roles: ['ADMIN_USER', 'MASTER_USER'], status: 'approved' });

/** A port on 127.0.0.1 nothing listens on now (taken, then released): for a server a test starts, or one that is down. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts server/main.ts as an operator does, in a child process on 127.0.0.1 with DATA_DIR
 * `dir`/data (cron off, no places loaded, unless `env` says otherwise); resolves when it serves
 * (then stops it with SIGTERM) or exits by itself, killed after `killAfterMs`.
 */
export function startMainOnce(dir: string, env: Record<string, string>, killAfterMs = 20_000) {
  const root = path.resolve(import.meta.dirname, '../..');
  const c = spawn(path.join(root, 'node_modules/.bin/node'), [path.join(root, 'server/main.ts')], {
    cwd: dir,
    env: {
      PATH: process.env.PATH!,
      NODE_ENV: 'development',
      DATA_DIR: path.join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      CRON: '0',
      SEED_LOCATIONS: '0',
      ...env,
    },
  });
  let out = '';
  let err = '';
  c.stdout.on('data', (d) => {
    out += String(d);
    if (out.includes('is serving on')) c.kill('SIGTERM');
  });
  c.stderr.on('data', (d) => (err += String(d)));
  const killer = setTimeout(() => c.kill('SIGKILL'), killAfterMs);
  return new Promise<{ code: number | null; err: string; served: boolean }>((resolve) =>
    c.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, err, served: out.includes('is serving on') });
    }),
  );
}
