import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import argon2 from 'argon2';

const ROOT = path.resolve(import.meta.dirname, '..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-cli-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(NODE, ['scripts/create-user.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });

function readUser(email: string) {
  const db = new Database(path.join(dataDir, 'xg.sqlite'), { readonly: true });
  try {
    const user = db.prepare('SELECT * FROM users WHERE email = ?').get(email) as Record<string, string> | undefined;
    const roles = user ? (db.prepare('SELECT role FROM user_roles WHERE user_id = ? ORDER BY role').all(user.id) as { role: string }[]).map((r) => r.role) : [];
    const wallets = user ? db.prepare('SELECT wallet_type FROM wallets WHERE user_id = ?').all(user.id) : [];
    const audit = db.prepare("SELECT action, target_id FROM audit_log WHERE action = 'user.create'").all();
    return { user, roles, wallets, audit };
  } finally {
    db.close();
  }
}

describe('scripts/create-user.ts', () => {
  it('--help prints the usage', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: npm run create-user -- --email/);
  });

  it('creates an approved staff account with the given roles, and audits it', async () => {
    const r = run(
      '--email',
      'Staff@Example.com',
      '--password',
      'a long staff password',
      '--role',
      'ADMIN_USER',
      '--role',
      'master_user',
      '--nickname',
      'staffer',
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Created staff@example\.com/);
    expect(r.stdout).not.toMatch(/Generated password/);
    const { user, roles, wallets, audit } = readUser('staff@example.com');
    expect(user).toMatchObject({ status: 'approved', nickname: 'staffer' });
    expect(roles).toEqual(['ADMIN_USER', 'MASTER_USER', 'PROVIDER_USER']);
    expect(wallets).toEqual([{ wallet_type: 'USD' }]);
    expect(await argon2.verify(user!.password_hash, 'a long staff password')).toBe(true);
    expect(audit).toEqual([{ action: 'user.create', target_id: user!.id }]);
  });

  it('generates and prints a password when none is given', async () => {
    const r = run('--email', 'ops@example.com');
    expect(r.status).toBe(0);
    const pw = /Generated password \(shown once\): (\S+)/.exec(r.stdout)![1];
    const { user, roles } = readUser('ops@example.com');
    expect(user!.nickname).toBe('ops');
    expect(roles).toEqual(['PROVIDER_USER']);
    expect(await argon2.verify(user!.password_hash, pw)).toBe(true);
  });

  it('refuses bad arguments (exit 2) and bad values (exit 1), creating nothing', () => {
    for (const args of [[], ['--email'], ['--email', 'a@b.co', '--role', 'GUEST_USER'], ['--email', 'a@b.co', '--bogus']]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/Usage:/);
    }
    const weak = run('--email', 'a@b.co', '--password', 'short');
    expect(weak.status).toBe(1);
    expect(weak.stderr).toMatch(/Refused: Password must be at least 10/);
    expect(readUser('a@b.co').user).toBeUndefined();
    expect(run('--email', 'dup@example.com').status).toBe(0);
    const dup = run('--email', 'DUP@example.com');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);
  });

  it('writes the account and its audit row together: when the audit row cannot be written, no account exists', () => {
    expect(run('--email', 'first@example.com', '--role', 'ADMIN_USER').status).toBe(0);
    const db = new Database(path.join(dataDir, 'xg.sqlite'));
    try {
      db.exec("CREATE TRIGGER audit_down BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END");
    } finally {
      db.close();
    }
    const r = run('--email', 'second@example.com', '--role', 'MASTER_USER');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/disk I\/O error/);
    const { user, audit } = readUser('second@example.com');
    expect(user).toBeUndefined(); // not a staff account nobody can trace
    expect(audit).toHaveLength(1);
    const check = new Database(path.join(dataDir, 'xg.sqlite'), { readonly: true });
    try {
      expect(check.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 1 });
      expect(check.prepare('SELECT count(*) AS n FROM wallets').get()).toEqual({ n: 1 });
    } finally {
      check.close();
    }
  });

  it('reads DATA_DIR from a .env file in the working directory, as the server does', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-dotenv-'));
    try {
      fs.writeFileSync(path.join(dir, '.env'), `DATA_DIR=${dataDir}\nLOG_LEVEL=silent\n`);
      const { DATA_DIR: _unset, ...rest } = process.env;
      const r = spawnSync(NODE, [path.join(ROOT, 'scripts/create-user.ts'), '--email', 'ann@example.com', '--password', 'a long enough pw'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...rest, NODE_ENV: 'test' },
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(path.join(dataDir, 'xg.sqlite'));
      expect(readUser('ann@example.com').user).toBeDefined();
      expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('create-user on a database newer than the code', () => {
  // After a rollback of the code, or on a copy from a newer install: the one sentence of the
  // refusal (upgrade the code) and exit 1, as for any refusal, never Node's crash with a stack.
  it('refuses in one sentence, exit 1, no stack trace', () => {
    const db = new Database(path.join(dataDir, 'xg.sqlite'));
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(9999, '9999_from_the_future.sql', 'x');
    db.close();
    const r = run('--email', 'ann@example.com', '--password', 'a long staff password', '--role', 'ADMIN_USER');
    expect({ status: r.status, stderr: r.stderr.trim() }).toEqual({
      status: 1,
      stderr: 'The database is newer than this code (it has migration 9999_from_the_future.sql). Upgrade the code before starting.',
    });
  });
});
