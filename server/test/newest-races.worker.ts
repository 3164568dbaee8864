import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { loadConfig } from '../core/config.ts';
import { ManualClock } from '../core/clock.ts';
import { openDatabase } from '../core/db.ts';
import { createPasswordHasher } from '../core/passwords.ts';
import { buildApp } from '../app.ts';

// A second server of newest-races.test.ts: its own app and its own connections on the
// test's database file (a second process), its clock at the test's time, sending its requests all
// at once at the wall-clock moment the test names once every server is ready and reporting each answer.

/** A request the test hands this server (the test imports the type). */
export interface Req {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
  remoteAddress?: string;
  /** ms after the common start */
  delayMs?: number;
  /** multipart form: fields and photos (base64) */
  form?: { fields: Record<string, string>; photos: string[] };
}
interface Job {
  file: string;
  dataDir: string;
  at: string;
  limits?: Record<string, number>;
  requests: Req[];
  /** holds the write lock (a third writer: any other request) for this many ms up to its start, letting go just before sending */
  lockBefore?: number;
  /** sent (one after the other) before the start: a cold server's first requests are slow */
  warmup?: Req[];
}
const { file, dataDir, at, limits, requests, warmup = [], lockBefore } = workerData as Job;
const errors: string[] = [];
try {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SEED_LOCATIONS: '0', CRON: '0' });
  const database = openDatabase(file);
  const app = await buildApp({
    config,
    database,
    clock: new ManualClock(at),
    hasher: createPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
    limits: {
      authAttemptsPerWindow: 100_000,
      authAccountPerHour: 100_000,
      avatarUpdatesPerHour: 1000,
      reportsPerHour: 1000,
      adsPerDay: 1000,
      apiPerMinute: 0,
      ...limits,
    },
    logger: { level: 'error', stream: { write: (line: string) => errors.push(line) } },
    distDir: null,
  });
  await app.ready();
  const send = (r: Req) => {
    let payload: unknown = r.payload;
    if (r.form) {
      const fd = new FormData();
      for (const [k, v] of Object.entries(r.form.fields)) fd.append(k, v);
      r.form.photos.forEach((p, i) => fd.append('photos', new Blob([new Uint8Array(Buffer.from(p, 'base64'))], { type: 'image/jpeg' }), `photo-${i}.jpg`));
      payload = fd;
    }
    return app.inject({
      method: r.method as 'GET',
      url: r.url,
      ...(r.remoteAddress ? { remoteAddress: r.remoteAddress } : {}),
      headers: { ...r.headers, 'sec-fetch-site': 'same-origin' },
      payload: payload as string,
    });
  };
  for (const r of warmup) await send(r);
  // Ready: the test sends the moment all servers start at, once every one of them is ready.
  parentPort!.postMessage({ ready: true });
  const start = await new Promise<number>((resolve) => parentPort!.once('message', (m: { start: number }) => resolve(m.start)));
  const spinUntil = async (t: number) => {
    const wait = t - Date.now();
    if (wait > 3) await new Promise((r) => setTimeout(r, wait - 3));
    while (Date.now() < t) {
      /* spin: start together with the other servers */
    }
  };
  if (lockBefore) {
    await spinUntil(start - lockBefore);
    const third = new Database(file);
    third.pragma('busy_timeout = 5000');
    third.exec('BEGIN IMMEDIATE');
    await spinUntil(start);
    third.exec('COMMIT');
    third.close();
  } else await spinUntil(start);
  const answers = await Promise.all(
    requests.map(async (r) => {
      if (r.delayMs) await new Promise((res) => setTimeout(res, r.delayMs));
      const t0 = Date.now() - start;
      const res = await send(r);
      return { status: res.statusCode, body: res.body, span: [t0, Date.now() - start] };
    }),
  );
  await app.close();
  await database.close();
  parentPort!.postMessage({ ok: true, answers, errors });
} catch (err) {
  parentPort!.postMessage({ ok: false, answers: [], errors: [...errors, err instanceof Error ? String(err.stack) : String(err)] });
}
