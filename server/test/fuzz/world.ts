import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type Database from 'better-sqlite3';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { cookieOf, createTestApp, makeUser, type TestContext, type TestUser } from '../harness.ts';
import { DbWatch } from './db-watch.ts';
import { readRouteSchemas, type RouteSchema } from './schema-map.ts';
import { Fixtures } from './fixtures.ts';

// A shard's world: one app built by the harness (real SQLite, app.inject), the route schemas, the
// change detector, the signed-in actors (made again when an input ends a session) and the rows
// the working requests name (fixtures.ts).

export type ActorName = 'guest' | 'provider' | 'admin' | 'master';
const ROLE_COUNT: Record<Exclude<ActorName, 'guest'>, number> = { provider: 1, admin: 2, master: 3 };

/** What the app logged as an unhandled error while serving the last request (5xx reports quote it). */
export interface LoggedError {
  message: string;
  code?: string;
  at?: string;
}

function tokenOf(cookie: string): { id: string; tv: number; exp: number } | null {
  try {
    const jwt = cookie.slice(cookie.indexOf('=') + 1);
    return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

export class World {
  readonly ctx: TestContext;
  readonly sqlite: Database.Database;
  readonly watch: DbWatch;
  readonly schemas: Map<string, RouteSchema | null>;
  readonly distDir: string;
  readonly images: { jpeg: Buffer; png: Buffer; webp: Buffer; gif: Buffer };
  /** Errors the app logged during the current request. */
  logged: LoggedError[] = [];
  private readonly actors = new Map<string, { user: TestUser; roles: number }>();
  readonly fx: Fixtures;
  private readonly userRow: Database.Statement;
  private seq = 0;

  private constructor(ctx: TestContext, distDir: string, schemas: Map<string, RouteSchema | null>, images: World['images']) {
    this.ctx = ctx;
    this.distDir = distDir;
    this.schemas = schemas;
    this.images = images;
    this.sqlite = ctx.app.deps.database.sqlite;
    this.userRow = this.sqlite.prepare(
      'SELECT status, token_version AS tv, deleted_at AS deletedAt, (SELECT count(*) FROM user_roles r WHERE r.user_id = users.id) AS roles FROM users WHERE id = ?',
    );
    // The app logs unhandled errors (the 500 path of the error handler) through its logger; the
    // harness turns logging off, so keep what would have been written for the failure report.
    const log = ctx.app.log as unknown as { error: (...args: unknown[]) => void };
    log.error = (obj: unknown, msg?: unknown) => {
      const err: (Error & { code?: string }) | undefined = (obj as { err?: Error })?.err ?? (obj instanceof Error ? obj : undefined);
      this.logged.push({
        message: err ? `${err.name}: ${err.message}` : String(msg ?? obj),
        code: err?.code,
        at: err?.stack
          ?.split('\n')
          .slice(1)
          .find((l) => l.includes(process.cwd()) && !l.includes('node_modules'))
          ?.trim()
          .replace(/^at /, '')
          .replace(`${process.cwd()}/`, ''),
      });
    };
    this.watch = new DbWatch(this.sqlite);
    this.fx = new Fixtures(this);
  }

  static async create(): Promise<World> {
    // A throw-away build holding only index.html, so the site module's page routes exist (as in
    // the authorization matrix).
    const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-fuzz-dist-'));
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><html><head><title>XG</title></head><body><div id="root"></div></body></html>');
    const big = 1_000_000_000;
    const ctx = await createTestApp({
      distDir,
      limits: { authAttemptsPerWindow: big, authAccountPerHour: big, avatarUpdatesPerHour: big, reportsPerHour: big, adsPerDay: big, apiPerMinute: 0 },
    });
    const schemas = await readRouteSchemas(ctx.app.deps);
    const tiny = (s: Sharp) => s.toBuffer();
    const base = () => sharp({ create: { width: 24, height: 16, channels: 3, background: '#c33' } });
    const images = {
      jpeg: await tiny(base().jpeg()),
      png: await tiny(base().png()),
      webp: await tiny(base().webp()),
      gif: await tiny(base().gif()),
    };
    return new World(ctx, distDir, schemas, images);
  }

  async close(): Promise<void> {
    await this.ctx.close();
    fs.rmSync(this.distDir, { recursive: true, force: true });
  }

  inject(opts: InjectOptions): Promise<LightMyRequestResponse> {
    return this.ctx.app.inject(opts);
  }

  next(): number {
    return ++this.seq;
  }

  /** Files under DATA_DIR/uploads (a refused upload must leave none behind). */
  uploadFiles(): number {
    const root = path.join(this.ctx.config.dataDir, 'uploads');
    if (!fs.existsSync(root)) return 0;
    return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  }

  // ---- actors -------------------------------------------------------------------------------

  private live(user: TestUser, roles: number): boolean {
    const t = tokenOf(user.cookie);
    if (!t || t.exp * 1000 <= this.ctx.clock.now().getTime() + 3_600_000) return false;
    const row = this.userRow.get(t.id) as { status: string; tv: number; deletedAt: string | null; roles: number } | undefined;
    return !!row && row.status === 'approved' && row.deletedAt === null && row.tv === t.tv && row.roles === roles;
  }

  /** A signed-in user kept for a role (or for one route: `own:<route>`), made again when a request ended its session. */
  async actor(key: string): Promise<TestUser> {
    const role = (key.startsWith('own:') ? 'provider' : key) as Exclude<ActorName, 'guest'>;
    const roles = ROLE_COUNT[role];
    const known = this.actors.get(key);
    if (known && this.live(known.user, roles)) return known.user;
    if (known) {
      // Signed out or token outdated, account intact: sign in again (cheaper than a new account).
      const row = this.userRow.get(known.user.id) as { status: string; deletedAt: string | null; roles: number } | undefined;
      if (row && row.status === 'approved' && row.deletedAt === null && row.roles === roles) {
        const res = await this.inject({ method: 'POST', url: '/api/login', payload: { email: known.user.email, password: known.user.password } });
        if (res.statusCode === 200) {
          known.user.cookie = cookieOf(res);
          if (this.live(known.user, roles)) return known.user;
        }
      }
    }
    const staff = role === 'admin' ? (['ADMIN_USER'] as const) : role === 'master' ? (['ADMIN_USER', 'MASTER_USER'] as const) : [];
    const user = await makeUser(this.ctx, { roles: [...staff], status: 'approved', nickname: `fz_${key.replace(/[^a-z]/gi, '').slice(-12)}_${this.next()}` });
    this.actors.set(key, { user, roles });
    return user;
  }
}
