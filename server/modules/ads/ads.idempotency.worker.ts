import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig } from '../../core/config.ts';
import { ManualClock } from '../../core/clock.ts';
import { openDatabase } from '../../core/db.ts';
import { buildApp } from '../../app.ts';

// One of the servers of ads.idempotency.test.ts: its own connection to the test's database file and
// its own app (its clock at the test's time), sending one request at the agreed moment, as a phone's
// retry reaching a second server process would.

interface Job {
  file: string;
  dataDir: string;
  at: string;
  start: number;
  request: { method: 'PUT'; url: string; headers: Record<string, string>; payload: object };
}
const { file, dataDir, at, start, request } = workerData as Job;
try {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SEED_LOCATIONS: '0', CRON: '0' });
  const database = openDatabase(file);
  const app = await buildApp({ config, database, clock: new ManualClock(at), logger: false, distDir: null });
  await app.ready();
  await new Promise((r) => setTimeout(r, Math.max(0, start - Date.now())));
  const res = await app.inject({ ...request, headers: { ...request.headers, 'sec-fetch-site': 'same-origin' } });
  await app.close();
  await database.close();
  parentPort!.postMessage({ ok: true, status: res.statusCode, body: res.body });
} catch (err) {
  parentPort!.postMessage({ ok: false, status: 0, body: err instanceof Error ? String(err.stack) : String(err) });
}
