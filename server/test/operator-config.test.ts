import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { ConfigError, loadConfig } from '../core/config.ts';
import { createMailer } from '../core/mailer.ts';
import { checkSmtp } from '../modules/health/health.checks.ts';
import { findJob } from '../modules/cron/cron.jobs.ts';
import { runJob } from '../modules/cron/cron.service.ts';
import { createTestApp } from './harness.ts';

// The operator's first day: settings they get half right, the scripts run with a wrong DATA_DIR or
// argument, the .env beside the code, and a health screen that must tell the truth.

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-operator-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'development', DATA_DIR: path.join(dir, 'data'), ...env });
/** The start's refusal, or 'accepted' when the settings start a server. */
const refusal = (env: Record<string, string>): string => {
  try {
    load(env);
    return 'accepted';
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return e.message;
  }
};
/** Node's uncaught-exception dump: a stack frame line or the caret under the source line. */
const stackTrace = (err: string) => /^\s+at .+:\d+:\d+\)?$/m.test(err) || /^\s*\^\s*$/m.test(err);
const script = (args: string[], env: Record<string, string>) => spawnSync(NODE, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });

describe('settings the operator got half right', () => {
  // Without BTCPAY_URL the sandbox runs (allowed outside production, and npm start sets no
  // NODE_ENV): staff may simulate payments and real Bitcoin is never asked for.
  it('BTCPAY_STORE_ID and BTCPAY_API_KEY without BTCPAY_URL refuse to start, naming BTCPAY_URL (not a silent sandbox)', () => {
    expect(refusal({ BTCPAY_STORE_ID: 'AbC123store', BTCPAY_API_KEY: 'k'.repeat(40), BTCPAY_WEBHOOK_SECRET: 's'.repeat(64) })).toMatch(/BTCPAY_URL/);
    expect(refusal({ BTCPAY_API_KEY: 'k'.repeat(40) })).toMatch(/BTCPAY_URL/);
    // The webhook secret alone is the sandbox's own (README: set it to choose it).
    expect(refusal({ BTCPAY_WEBHOOK_SECRET: 's'.repeat(64) })).toBe('accepted');
  });

  // The app is served from / (the build's /assets/…, every page route, the BTCPay webhook): links
  // under /market would reach pages it does not answer.
  it('a PUBLIC_URL with a path refuses to start, naming PUBLIC_URL; the site root with a slash is fine', () => {
    expect(refusal({ PUBLIC_URL: 'https://example.com/market' })).toMatch(/PUBLIC_URL must be the address of the site's root/);
    expect(refusal({ PUBLIC_URL: 'https://example.com/market/' })).toMatch(/PUBLIC_URL/);
    expect(load({ PUBLIC_URL: 'https://example.com/' }).publicUrl).toBe('https://example.com');
  });

  // Every https test is publicUrl.startsWith('https:'): kept as written, HTTPS://… lost HSTS, the
  // CSP's upgrade-insecure-requests and the Secure session cookie, silently.
  it('PUBLIC_URL=HTTPS://… is kept as the URL reads it, and the answers carry HSTS', async () => {
    expect(load({ PUBLIC_URL: 'HTTPS://XG.Example:443/' }).publicUrl).toBe('https://xg.example');
    expect(load({ PUBLIC_URL: 'HTTP://XG.Example:8080' }).publicUrl).toBe('http://xg.example:8080');
    const ctx = await createTestApp({ env: { PUBLIC_URL: 'HTTPS://xg.example' } });
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/session' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await ctx.close();
    }
  });

  // The sender of every reset link and code: no address in it sends mail without a sender (or has
  // the relay refuse it) for as long as the server runs. Checked as MASTER_EMAIL is.
  it('a MAIL_FROM that holds no e-mail address refuses to start, naming MAIL_FROM; addr and Name <addr> are kept as written', () => {
    expect(refusal({ MAIL_FROM: 'XG Marketplace' })).toMatch(/MAIL_FROM/);
    expect(refusal({ MAIL_FROM: 'no-reply@' })).toMatch(/MAIL_FROM/);
    expect(refusal({ MAIL_FROM: 'XG <no-reply@>' })).toMatch(/MAIL_FROM/);
    expect(refusal({ MAIL_FROM: 'XG <a@b.example> <c@d.example>' })).toMatch(/MAIL_FROM/);
    expect(load({ MAIL_FROM: 'No-Reply@XG.example' }).mailFrom).toBe('No-Reply@XG.example');
    expect(load({ MAIL_FROM: '"XG, Inc." <no-reply@xg.example>' }).mailFrom).toBe('"XG, Inc." <no-reply@xg.example>');
  });
});

describe('the documented scripts with a wrong DATA_DIR or argument', () => {
  // The server, create-user and btcpay:connect refuse such a DATA_DIR in one line (loadConfig);
  // seed-locations and restore read DATA_DIR themselves and dumped mkdir's EEXIST / ENOTDIR stack.
  it('seed-locations and restore on a DATA_DIR that is a file refuse in one line naming DATA_DIR, no stack trace', () => {
    const data = { DATA_DIR: path.join(dir, 'data') };
    const made = script(['scripts/create-user.ts', '--email', 'ann@example.com'], data);
    expect(made.status, made.stderr).toBe(0);
    const backup = script(['scripts/backup.ts', '--out', path.join(dir, 'b.sqlite')], data);
    expect(backup.status, backup.stderr).toBe(0);
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const run = (args: string[]) => {
      const r = script(args, { DATA_DIR: file });
      return { status: r.status, stackTrace: stackTrace(r.stderr), says: r.stderr.trim() };
    };
    const refused = { status: 1, stackTrace: false, says: `DATA_DIR must be a folder the server can write to: ${file} is not a folder` };
    expect({
      'seed-locations': run(['scripts/seed-locations.ts']),
      restore: run(['scripts/restore.ts', '--from', path.join(dir, 'b.sqlite')]),
    }).toEqual({ 'seed-locations': refused, restore: refused });
  }, 60_000);

  // The mkdir and the first open ran outside the try that words every other failure.
  it('backup --out under a file fails in one line, exit 1, no stack trace', () => {
    const data = { DATA_DIR: path.join(dir, 'data'), SEED_LOCATIONS: '0' };
    const made = script(['scripts/create-user.ts', '--email', 'ann@example.com', '--role', 'MASTER_USER'], data);
    expect(made.status, made.stderr).toBe(0);
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, 'x');
    const r = script(['scripts/backup.ts', '--out', path.join(file, 'xg.sqlite')], data);
    expect({ status: r.status, stackTrace: stackTrace(r.stderr), says: r.stderr.split('\n')[0] }).toEqual({
      status: 1,
      stackTrace: false,
      says: expect.stringMatching(/^Backup failed: (EEXIST|ENOTDIR)/) as unknown,
    });
  }, 60_000);
});

describe('the .env file', () => {
  // README: settings come "from the environment (or a .env file beside package.json)". Read from
  // the working directory, a server started by path from elsewhere (a systemd unit without
  // WorkingDirectory, `node /opt/xg/server/main.ts`) ran on the defaults: a new empty database in
  // ./data of wherever it was started, sandbox payments, a freshly generated master.
  it('a server started from another folder reads the .env beside package.json', async () => {
    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    for (const d of ['server', 'contract', 'src', 'migrations']) fs.cpSync(path.join(ROOT, d), path.join(app, d), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(app, 'node_modules'));
    const configured = path.join(dir, 'configured-data');
    fs.writeFileSync(path.join(app, '.env'), `DATA_DIR=${configured}\n`);
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const c = spawn(NODE, [path.join(app, 'server/main.ts')], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH!, HOST: '127.0.0.1', PORT: '0', CRON: '0', SEED_LOCATIONS: '0', LOG_LEVEL: 'warn' },
    });
    let out = '';
    c.stdout.on('data', (d) => {
      out += String(d);
      if (out.includes('is serving on')) c.kill('SIGTERM');
    });
    const killer = setTimeout(() => c.kill('SIGKILL'), 40_000);
    await new Promise((resolve) => c.on('close', resolve));
    clearTimeout(killer);
    expect(out).toContain('is serving on');
    expect({
      databaseInConfiguredDataDir: fs.existsSync(path.join(configured, 'xg.sqlite')),
      databaseInWorkingDirectory: fs.existsSync(path.join(elsewhere, 'data', 'xg.sqlite')),
    }).toEqual({ databaseInConfiguredDataDir: true, databaseInWorkingDirectory: false });
  }, 60_000);
});

describe('the health screen telling the truth', () => {
  // The health-checks job first writes its run's row: when that write failed, the checks never ran,
  // stopped by the very failure they are there to see, and /api/health kept answering 200 from the
  // last stored result (a stuck process holding the lock, a full disk, a read-only file).
  it('while another process holds the write lock, the scheduled health check still runs and /api/health answers 503', async () => {
    const ctx = await createTestApp();
    try {
      const job = findJob('health-checks')!;
      await runJob(ctx.app.deps, job); // the start's run: all well
      expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const other = new Database(path.join(ctx.dataDir, 'xg.sqlite'));
      other.exec('BEGIN IMMEDIATE'); // a stuck tool or process holding the write lock
      try {
        // What the scheduler's tick does every 5 minutes: the run is not recorded, and says so.
        await expect(runJob(ctx.app.deps, job)).rejects.toThrow(/locked|busy/i);
        const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
        expect([res.statusCode, res.json()]).toEqual([503, { status: 'failing' }]);
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
    } finally {
      await ctx.close();
    }
  }, 60_000);

  // README: "The smtp check says whether it logged in (only when SMTP_URL names a user)". On a port
  // that offers no AUTH (a relay's port 25 instead of 587), nodemailer's verify() skips the login
  // without a word: the check claimed one, with a wrong password, while mail went out unauthenticated.
  it('the smtp check does not claim a login that never happened (the server offers no AUTH, the password is wrong)', async () => {
    const server = new SMTPServer({ secure: false, authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const host = `127.0.0.1:${(server.server.address() as AddressInfo).port}`;
      const url = `smtp://ann:wrong-password@${host}`;
      const mailer = createMailer({ smtpUrl: url, mailFrom: 'XG <no-reply@xg.test>', dataDir: dir }, pino({ level: 'silent' }));
      expect(await checkSmtp(mailer, url)).toEqual({
        status: 'degraded',
        message: `${host} accepted the connection but offers no login (AUTH): SMTP_URL names a user, yet mail is sent without logging in`,
        says: { code: 'smtp.no_auth', params: { host } },
      });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
