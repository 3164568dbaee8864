import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { createTestApp, type TestContext } from '../test/harness.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-config-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...env });

describe('settings that are URLs', () => {
  it('a bad SMTP_URL or TEXTBELT_URL refuses to start, naming each, without echoing SMTP credentials', () => {
    let error: unknown = null;
    try {
      load({ SMTP_URL: 'smtp//user:s3cret@mail.example.com:587', TEXTBELT_URL: 'ftp://sms.internal' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as Error).message;
    expect(text).toContain('SMTP_URL must be a smtp:// or smtps:// URL');
    expect(text).toContain('TEXTBELT_URL must be a http:// or https:// URL (got "ftp://sms.internal")');
    expect(text).not.toContain('s3cret');
  });

  it('good ones are kept as given', () => {
    const c = load({ SMTP_URL: 'smtps://user:pw@mail.example.com:465', TEXTBELT_URL: 'http://127.0.0.1:9090/' });
    expect([c.smtpUrl, c.textbeltUrl]).toEqual(['smtps://user:pw@mail.example.com:465', 'http://127.0.0.1:9090']);
  });
});

describe('TRUST_PROXY', () => {
  it('0 trusts nobody; 1 a proxy on this machine; else the listed proxies; anything else refuses to start', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe('loopback');
    expect(load({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1' }).trustProxy).toBe('10.0.0.5,10.1.0.0/16,::1');
    expect(() => load({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY must be 0, 1/);
    expect(() => load({ TRUST_PROXY: '3' })).toThrow(/TRUST_PROXY must be 0, 1/);
  });

  it('refuses at start, naming TRUST_PROXY, what the app could not build with: a word, a bad range, a bad address', () => {
    const bads = ['bad', 'cafe', '10.0.0.0/99', '999.1.1.1', '::1/129', '10.0.0.1/', 'loopback,10.0.0.1/33', '10.0.0.1, bad', '0.0.0.0/0', '::/0'];
    for (const bad of bads) {
      expect(() => load({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      expect(() => load({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be 0, 1/);
    }
    expect(load({ TRUST_PROXY: 'loopback, linklocal,uniquelocal, 10.0.0.0/8, 1.2.3.4/32, fd00::/8, ::1/128, ::ffff:10.0.0.1' }).trustProxy).toBe(
      'loopback,linklocal,uniquelocal,10.0.0.0/8,1.2.3.4/32,fd00::/8,::1/128,::ffff:10.0.0.1',
    );
  });

  it('what it accepts, the app builds with', async () => {
    const ctx = await createTestApp({ env: { TRUST_PROXY: 'loopback, linklocal, uniquelocal, 10.0.0.0/8, 1.2.3.4/32, fd00::/8, ::1/128, ::ffff:10.0.0.1' } });
    try {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBeLessThan(500);
    } finally {
      await ctx.close();
    }
  });

  describe('behind one proxy on this machine', () => {
    let ctx: TestContext;
    afterEach(() => ctx.close());
    const signIn = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      ctx.app.inject({ method: 'POST', url: '/api/login', remoteAddress, headers, payload: { email: 'victim@example.com', password: 'wrong password 1' } });

    it('the client is the address the proxy saw: an X-Forwarded-For entry the client wrote does not dodge the sign-in limit', async () => {
      ctx = await createTestApp({ env: { TRUST_PROXY: '1' }, limits: { authAttemptsPerWindow: 3 } });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await signIn({ 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` })).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      // Another client behind the same proxy is another client.
      expect((await signIn({ 'x-forwarded-for': '203.0.113.8' })).statusCode).toBe(401);
    });

    it('a client that reaches the server directly is not a proxy: its X-Forwarded-For is ignored', async () => {
      ctx = await createTestApp({ env: { TRUST_PROXY: '1' }, limits: { authAttemptsPerWindow: 3 } });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await signIn({ 'x-forwarded-for': `198.51.100.${i}` }, '203.0.113.9')).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    });
  });
});

describe('MASTER_EMAIL, MASTER_PASSWORD and STAFF_EMAIL', () => {
  const problems = (env: Record<string, string>) => {
    try {
      load(env);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
    return '';
  };

  it('a bad e-mail or a weak password refuses to start, naming each setting, never echoing the password', () => {
    const text = problems({ MASTER_EMAIL: 'admin', MASTER_PASSWORD: 'short pw', STAFF_EMAIL: 'ops@' });
    expect(text).toContain('MASTER_EMAIL: Enter a valid e-mail address');
    expect(text).toContain('(got "admin")');
    expect(text).toContain('MASTER_PASSWORD: Password must be at least 10 characters');
    expect(text).toContain('STAFF_EMAIL: Enter a valid e-mail address');
    expect(text).toContain('(got "ops@")');
    expect(text).not.toContain('short pw');
    expect(problems({ MASTER_EMAIL: 'boss@example.com', MASTER_PASSWORD: 'x'.repeat(201) })).toContain(
      'MASTER_PASSWORD: Password must be at most 200 characters',
    );
    expect(problems({ MASTER_EMAIL: 'boss@example.com', MASTER_PASSWORD: 'Boss@Example.com' })).toContain(
      'MASTER_PASSWORD: Password must not be your e-mail address',
    );
  });

  it('good ones are kept, the e-mails normalised as accounts store them', () => {
    const c = load({ MASTER_EMAIL: ' Boss@Example.com ', MASTER_PASSWORD: 'a long master password', STAFF_EMAIL: 'ＯＰＳ@example.com' });
    expect([c.masterEmail, c.masterPassword, c.staffEmail]).toEqual(['boss@example.com', 'a long master password', 'ops@example.com']);
    expect(load({ MASTER_EMAIL: 'Boss@Example.com', MASTER_PASSWORD: 'a long master password' }).staffEmail).toBe('boss@example.com');
  });
});

describe('production', () => {
  it('names every missing setting at once, PUBLIC_URL among them (e-mailed links would point at localhost)', () => {
    let text = '';
    try {
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir });
    } catch (e) {
      text = (e as Error).message;
    }
    expect(text).toContain('PUBLIC_URL is required in production');
    expect(text).toContain('JWT_SECRET is required in production');
    expect(text).toContain('BTCPAY_URL, BTCPAY_STORE_ID, BTCPAY_API_KEY and BTCPAY_WEBHOOK_SECRET are required in production');
  });
});

describe('every setting is documented', () => {
  it('names each variable the server reads in .env.example and in the README’s configuration table', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');
    const source =
      read('server/core/config.ts') + read('server/main.ts') + read('src/components/public/profileItems.ts') + read('src/components/public/Footer.tsx');
    const names = new Set([...source.matchAll(/(?:int|str|url|email|flag)\('([A-Z][A-Z0-9_]+)'|env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1] ?? m[2]));
    names.delete('NODE_ENV'); // the platform's own
    expect([...names]).toEqual(expect.arrayContaining(['PORT', 'CACHE_MB', 'CRON', 'SEED_LOCATIONS', 'XG_RELAXED_LIMITS', 'VITE_HIDE_ADMIN_LINKS']));
    const example = read('.env.example');
    const readme = read('README.md');
    expect([...names].filter((n) => !new RegExp(`^#? ?${n}=`, 'm').test(example))).toEqual([]);
    expect([...names].filter((n) => !readme.includes(`\`${n}\``))).toEqual([]);
  });
});

describe('settings an operator gets wrong', () => {
  const refused = (env: Record<string, string>) => () => load(env);

  // CRON=false or SEED_LOCATIONS=no would otherwise read as on: two servers on one file both
  // running the jobs, or a seed the operator asked to skip.
  it('CRON and SEED_LOCATIONS are 0 or 1; anything else refuses to start, naming the setting', () => {
    expect(refused({ CRON: 'false' })).toThrow(/CRON must be 0 or 1/);
    expect(refused({ SEED_LOCATIONS: 'no' })).toThrow(/SEED_LOCATIONS must be 0 or 1/);
    expect([load({ CRON: '0', SEED_LOCATIONS: '0' }), load({ CRON: '1', SEED_LOCATIONS: '1' }), load({})].map((c) => [c.cron, c.seedLocations])).toEqual([
      [false, false],
      [true, true],
      [true, true],
    ]);
  });

  // Number() reads 0x1F90 as 8080 and 1e3 as 1000: the server would serve on a port nobody wrote.
  it('a PORT (or any number) that is not plain digits refuses to start, naming it', () => {
    expect(refused({ PORT: '0x1F90' })).toThrow(/PORT must be a whole number/);
    expect(refused({ PORT: '1e3' })).toThrow(/PORT must be a whole number/);
    expect(refused({ SESSION_DAYS: '7.0' })).toThrow(/SESSION_DAYS/);
    expect(load({ PORT: '8080' }).port).toBe(8080);
  });

  // Every e-mailed link and canonical URL is `${PUBLIC_URL}${path}`: a query or fragment would sit
  // in the middle of each, and credentials would be mailed to every user (so they are not echoed).
  it('a PUBLIC_URL with a query, fragment or credentials refuses to start, naming it without echoing it', () => {
    expect(refused({ PUBLIC_URL: 'https://example.com/?ref=launch' })).toThrow(/PUBLIC_URL/);
    expect(refused({ PUBLIC_URL: 'https://example.com/#top' })).toThrow(/PUBLIC_URL/);
    expect(refused({ PUBLIC_URL: 'https://ann:s3cret@example.com' })).toThrow(/PUBLIC_URL/);
    expect(refused({ PUBLIC_URL: 'https://ann:s3cret@example.com' })).not.toThrow(/s3cret/);
    expect(load({ PUBLIC_URL: 'https://example.com/' }).publicUrl).toBe('https://example.com');
  });

  // A sender at localhost cannot pass SPF, DKIM or DMARC: mail would land in spam or be refused.
  it('MAIL_FROM left unset sends from the domain of PUBLIC_URL; one that is set is kept', () => {
    expect(load({ PUBLIC_URL: 'https://xg.example:8443/' }).mailFrom).toBe('XG Marketplace <no-reply@xg.example>');
    expect(load({}).mailFrom).toBe('XG Marketplace <no-reply@localhost>');
    // An address's domain may be an IP address only as a literal (RFC 5321 §4.1.3).
    expect(load({ PUBLIC_URL: 'http://192.0.2.7:3000' }).mailFrom).toBe('XG Marketplace <no-reply@[192.0.2.7]>');
    expect(load({ PUBLIC_URL: 'http://[2001:db8::7]:3000' }).mailFrom).toBe('XG Marketplace <no-reply@[IPv6:2001:db8::7]>');
    expect(load({ PUBLIC_URL: 'https://xg.example', MAIL_FROM: 'XG <hello@mail.xg.example>' }).mailFrom).toBe('XG <hello@mail.xg.example>');
  });

  // pino would refuse it only inside buildApp, after the database is migrated, with a stack trace.
  it('a LOG_LEVEL pino does not know refuses to start, naming it; its levels and silent are kept', () => {
    expect(refused({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL must be one of/);
    expect(refused({ LOG_LEVEL: 'INFO' })).toThrow(/LOG_LEVEL/);
    expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'].map((l) => load({ LOG_LEVEL: l }).logLevel)).toEqual([
      'trace',
      'debug',
      'info',
      'warn',
      'error',
      'fatal',
      'silent',
    ]);
  });

  // A file, or a folder this user may not write to, would fail later with a raw ENOTDIR or EACCES.
  it('a DATA_DIR that is not a folder the server can write to refuses to start, naming DATA_DIR', () => {
    const file = path.join(dataDir, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    expect(refused({ DATA_DIR: file })).toThrow(ConfigError);
    expect(refused({ DATA_DIR: file })).toThrow(/DATA_DIR must be a folder the server can write to/);
    expect(refused({ DATA_DIR: path.join(file, 'data') })).toThrow(/DATA_DIR/);
    expect(load({ DATA_DIR: path.join(dataDir, 'not', 'made', 'yet') }).dataDir).toBe(path.join(dataDir, 'not', 'made', 'yet'));
    // A secrets file that is not JSON is the operator's to mend: named, not a crash.
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), '{');
    expect(refused({})).toThrow(/DATA_DIR: .*secrets\.json is not readable JSON/);
  });
});
