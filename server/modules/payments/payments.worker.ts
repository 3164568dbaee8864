import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig } from '../../core/config.ts';
import { openDatabase } from '../../core/db.ts';
import { buildApp } from '../../app.ts';

// One of the writers of payments.workers.test.ts: its own connection to the test's database file
// and its own app, reconciling once at the agreed moment.

const { file, env, start } = workerData as { file: string; env: Record<string, string>; start: number };
try {
  const config = loadConfig({ NODE_ENV: 'test', SEED_LOCATIONS: '0', CRON: '0', JWT_SECRET: 'w'.repeat(40), ...env });
  const database = openDatabase(file);
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  await new Promise((r) => setTimeout(r, Math.max(0, start - Date.now())));
  const report = (await app.deps.services.payments.reconcile()).message;
  await app.close();
  await database.close();
  parentPort!.postMessage({ ok: true, report });
} catch (err) {
  parentPort!.postMessage({ ok: false, report: err instanceof Error ? err.stack : String(err) });
}
