import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import sharp from 'sharp';

// End-to-end harness: the real server process (server/main.ts, serving the built bundle in dist/)
// on a free 127.0.0.1 port with its own temporary DATA_DIR, and Debian's Chromium driven by
// playwright-core. `npm run test:e2e` builds dist/ first.

const ROOT = path.resolve(import.meta.dirname, '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  master: { email: string; password: string };
  logs(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A private copy of dist/: the server keeps serving the pages and assets of the build it started
 * with while someone rebuilds the shared checkout. Waits for a build in progress to finish (its
 * server renderer, written last, newer than its index.html).
 */
function copyOfDist(to: string): string {
  const dist = path.join(ROOT, 'dist');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const index = fs.statSync(path.join(dist, 'index.html'), { throwIfNoEntry: false });
    const ssr = fs.statSync(path.join(dist, '.ssr', 'entry-server.js'), { throwIfNoEntry: false });
    if (index && ssr && ssr.mtimeMs >= index.mtimeMs) {
      try {
        fs.cpSync(dist, to, { recursive: true });
        const html = fs.readFileSync(path.join(to, 'index.html'), 'utf8');
        if ([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].every((m) => fs.existsSync(path.join(to, m[1])))) return to;
      } catch {
        /* changed while copied: again */
      }
      fs.rmSync(to, { recursive: true, force: true });
    }
    if (Date.now() > deadline) throw new Error('dist/ is not built: run `npm run build` (npm run test:e2e does it)');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
}

export async function startServer(opts: { env?: Record<string, string> } = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'index.html'))) throw new Error('dist/ is not built: run `npm run build` (npm run test:e2e does it)');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-e2e-'));
  const distDir = copyOfDist(path.join(dataDir, 'dist'));
  const master = { email: 'master@e2e.test', password: 'master-password-e2e' };
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      MASTER_EMAIL: master.email,
      MASTER_PASSWORD: master.password,
      CRON: '0',
      XG_RELAXED_LIMITS: '1',
      XG_DIST_DIR: distDir,
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/session`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    port,
    dataDir,
    master,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * Public pages come rendered by the server and are interactive once React has hydrated them
 * (App sets <html data-hydrated>): page.goto and page.reload wait for that, as a visitor's first
 * click would otherwise land on a page that does not answer yet. Pages the browser renders
 * itself (sign-in, the dashboard) have no server data (#__DATA__) and are not waited for.
 */
export function waitForHydration(page: Page): Page {
  const settle = async <T>(r: T): Promise<T> => {
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true' || !document.getElementById('__DATA__'));
    return r;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => settle(await goto(...args));
  page.reload = async (...args: Parameters<Page['reload']>) => settle(await reload(...args));
  return page;
}

/**
 * Holds back the page's scripts until the returned `release()` is called: the server-rendered page
 * is shown and can be typed into, as on a slow network, before React has taken it over.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let hold = true;
  await page.route('**/assets/*.js', async (r) => {
    while (hold) await new Promise((x) => setTimeout(x, 100));
    await r.continue().catch(() => {});
  });
  return () => (hold = false);
}

/** A fresh browser context; `ageConfirmed` pre-stores the age-gate confirmation so tests not about the gate skip it. */
export async function newContext(
  browser: Browser,
  server: RunningServer,
  opts: { ageConfirmed?: boolean; viewport?: { width: number; height: number }; locale?: string } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url, viewport: opts.viewport ?? { width: 1280, height: 900 }, locale: opts.locale ?? 'en-US' });
  const newPage = context.newPage.bind(context);
  context.newPage = async () => waitForHydration(await newPage());
  if (opts.ageConfirmed !== false) {
    // The age gate stores its confirmation in a cookie (readable by the server, so crawlers and
    // confirmed visitors get no gate flash) and in localStorage.
    await context.addCookies([{ name: 'over_18_user_confirmation', value: 'true', url: server.url }]);
    await context.addInitScript(() => {
      try {
        window.localStorage.setItem('over_18_user_confirmation', 'true');
        window.localStorage.setItem('over_18_user_confirmation_expires', String(Date.now() + 30 * 86400_000));
      } catch {
        /* storage unavailable */
      }
    });
  }
  return context;
}

export const SCREENSHOTS = path.join(ROOT, 'test-results');
fs.mkdirSync(SCREENSHOTS, { recursive: true });

/** A photo file for the ad form's file input; `remove()` deletes it with its temporary directory. */
export interface TestPhoto {
  path: string;
  remove(): void;
}

/** A solid-colour JPEG (640 × 480 unless said) in a temporary directory of its own. */
export async function photoFile(background: { r: number; g: number; b: number }, size = { width: 640, height: 480 }): Promise<TestPhoto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-e2e-photo-'));
  const file = path.join(dir, 'photo.jpg');
  await sharp({ create: { ...size, channels: 3, background } })
    .jpeg()
    .toFile(file);
  return { path: file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A suite's screenshot taker: `shot(page, name)` writes test-results/<prefix>-<name>.png (full page); a failed shot never fails the test. */
export function screenshots(prefix: string): (page: Page, name: string) => Promise<void> {
  return async (page, name) => {
    await page.screenshot({ path: path.join(SCREENSHOTS, `${prefix}-${name}.png`), fullPage: true }).catch(() => {});
  };
}
