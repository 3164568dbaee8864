import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { loadConfig } from './config.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import { migrate } from './migrate.ts';
import { GENERATED_KEYS_FILE } from './secrets.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-secrets-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('secrets of an install that did not set them', () => {
  it('are generated at first start, kept in DATA_DIR with mode 0600, and the same on the next start', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.secretsCreated).toBe(true);
    expect(first.secretsFile).toBe(path.join(dataDir, GENERATED_KEYS_FILE));
    expect(fs.statSync(first.secretsFile!).mode & 0o777).toBe(0o600);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.btcpay.webhookSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.jwtSecret).not.toBe(first.btcpay.webhookSecret);

    const again = loadConfig({ DATA_DIR: dataDir });
    expect(again.secretsCreated).toBe(false);
    expect(again.jwtSecret).toBe(first.jwtSecret);
    expect(again.btcpay.webhookSecret).toBe(first.btcpay.webhookSecret);
  });

  it('differ between installs, so a cookie minted for one install does not open another', () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-secrets-'));
    try {
      const a = loadConfig({ DATA_DIR: dataDir });
      const b = loadConfig({ DATA_DIR: other });
      expect(a.jwtSecret).not.toBe(b.jwtSecret);
      const now = Math.floor(Date.now() / 1000);
      const token = signJwt({ id: 'u1', iat: now, exp: now + 60 }, a.jwtSecret);
      expect(verifyJwt(token, a.jwtSecret, now)).not.toBeNull();
      expect(verifyJwt(token, b.jwtSecret, now)).toBeNull();
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('are not generated when the operator sets them', () => {
    const c = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), BTCPAY_WEBHOOK_SECRET: 'y'.repeat(40) });
    expect(c.secretsFile).toBeNull();
    expect(c.jwtSecret).toBe('x'.repeat(40));
    expect(fs.existsSync(path.join(dataDir, GENERATED_KEYS_FILE))).toBe(false);
  });

  it('are still required from the operator in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir })).toThrow(/JWT_SECRET is required in production/);
  });

  it('go with the backups', () => {
    const { jwtSecret } = loadConfig({ DATA_DIR: dataDir });
    const db = new Database(path.join(dataDir, 'xg.sqlite'));
    migrate(db);
    db.close();
    const r = spawnSync(path.join(ROOT, 'node_modules/.bin/node'), ['scripts/backup.ts', '--out', path.join(dataDir, 'b', 'copy.sqlite')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir },
    });
    expect(r.status, r.stderr).toBe(0);
    const copy = path.join(dataDir, 'b', `copy.${GENERATED_KEYS_FILE}`);
    expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(copy, 'utf8')).jwtSecret).toBe(jwtSecret);
  });
});

describe('the source', () => {
  it('holds no secret literal the server could sign or verify with', () => {
    const files = fs
      .readdirSync(path.join(ROOT, 'server'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !/(\.test|\.testkit|\.access)\.ts$|(^|\/)test[-/]/.test(f));
    const suspicious = /(secret|password|api_?key|token)[a-z_]*['"]?\s*[:=]\s*['"][^'"]{12,}['"]/i;
    const hits = files
      .flatMap((f) =>
        fs
          .readFileSync(path.join(ROOT, 'server', f), 'utf8')
          .split('\n')
          .map((line, i) => ({ f, i, line }))
          .filter((x) => suspicious.test(x.line)),
      )
      .map((x) => `server/${x.f}:${x.i + 1}: ${x.line.trim()}`);
    expect(hits).toEqual([]);
  });
});
