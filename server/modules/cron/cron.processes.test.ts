import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/harness.ts';
import { tryRunJob } from './cron.service.ts';
import { openDatabase } from '../../core/db.ts';
import { buildApp } from '../../app.ts';
import { jobReport, type JobReport } from '../../core/report.ts';

// Two server processes on one database file (STYLE: a second process is a supported case): the
// test's app is the first; a child process, started as main.ts starts the server, is the second.
const ROOT = path.resolve(import.meta.dirname, '../../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');

/** The second process: becomes ready (which records a stopped process's runs as interrupted), then tries to run the job. */
const SECOND = `
import path from 'node:path';
import { loadConfig } from '${ROOT}/server/core/config.ts';
import { openDatabase } from '${ROOT}/server/core/db.ts';
import { buildApp } from '${ROOT}/server/app.ts';
import { tryRunJob } from '${ROOT}/server/modules/cron/cron.service.ts';
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: process.env.DATA_DIR, SEED_LOCATIONS: '0', CRON: '0' });
const database = openDatabase(path.join(config.dataDir, 'xg.sqlite'));
const app = await buildApp({ config, database, logger: false, distDir: null });
await app.ready();
const afterReady = database.sqlite.prepare('SELECT name, outcome, message FROM cron_runs ORDER BY id').all();
let second;
try {
  second = await tryRunJob(app.deps, { name: 'renewal-reminders', schedule: '20 * * * *', run: async () => ({ message: 'the second process ran it', says: { code: 'test.done' } }) });
} catch (err) {
  second = { refused: err.statusCode, code: err.code };
}
console.log(JSON.stringify({ afterReady, second }));
await app.close();
database.close();
`;

function second(dataDir: string): Promise<{ afterReady: { name: string; outcome: string; message: string | null }[]; second: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, ['--input-type=module', '-e', SECOND], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

describe('cron with two server processes on one file', () => {
  it("neither records the other's live run as interrupted nor runs the same job alongside it; once it is done, either runs it", async () => {
    let finish!: () => void;
    const first = tryRunJob(ctx.app.deps, {
      name: 'renewal-reminders',
      schedule: '20 * * * *',
      run: () => new Promise<JobReport>((r) => (finish = () => r(jobReport('the first process ran it', 'test.done')))),
    })!;
    await new Promise((r) => setTimeout(r, 50)); // its run is recorded

    const during = await second(ctx.dataDir);
    expect(during.afterReady).toEqual([{ name: 'renewal-reminders', outcome: 'running', message: null }]);
    expect(during.second).toEqual({ refused: 409, code: 'cron.job_running' });

    finish();
    expect(await first).toMatchObject({ outcome: 'ok', message: 'the first process ran it' });
    const after = await second(ctx.dataDir);
    expect(after.second).toMatchObject({ name: 'renewal-reminders', outcome: 'ok', message: 'the second process ran it' });
  }, 60_000);

  it('a run past its time limit whose work goes on stays the lock: another server on the file does not start the job until the work stops', async () => {
    // The other server: its own connections to the file (a child process boots slower than the give-up below).
    const otherDb = openDatabase(path.join(ctx.dataDir, 'xg.sqlite'));
    const other = await buildApp({ config: ctx.config, database: otherDb, logger: false, distDir: null });
    await other.ready();
    try {
      let finish!: () => void;
      const first = await tryRunJob(ctx.app.deps, {
        name: 'renewal-reminders',
        schedule: '20 * * * *',
        timeoutMs: 300,
        run: () => new Promise<JobReport>((r) => (finish = () => r(jobReport('late', 'test.done')))), // ignores its signal
      })!;
      expect(first).toMatchObject({ outcome: 'failed', message: 'timed out after 300 ms' });
      const job = { name: 'renewal-reminders', schedule: '20 * * * *', run: async () => jobReport('the other server ran it', 'test.done') };
      const refused = await tryRunJob(other.deps, job)!.catch((e: { statusCode?: number; code?: string }) => ({ refused: e.statusCode, code: e.code }));
      expect(refused).toEqual({ refused: 409, code: 'cron.job_running' });
      finish();
      await new Promise((r) => setTimeout(r, 50)); // the work stops: the run is recorded as it came to
      const row = ctx.app.deps.database.sqlite.prepare('SELECT outcome, message FROM cron_runs WHERE id = ?').get(first.id);
      expect(row).toEqual({ outcome: 'failed', message: 'timed out after 300 ms' });
      expect(await tryRunJob(other.deps, job)).toMatchObject({ outcome: 'ok', message: 'the other server ran it' });
    } finally {
      await other.close();
      await otherDb.close();
    }
  });

  it('records as interrupted the run of a process that stopped saying it is still at it (a crash), and runs the job again', async () => {
    const long = new Date(Date.now() - 5 * 60_000).toISOString();
    await ctx.app.deps.db
      .insertInto('cron_runs')
      .values({ name: 'renewal-reminders', started_at: long, outcome: 'running', owner: 'crashed-process', heartbeat_at: long })
      .execute();
    const next = await second(ctx.dataDir);
    expect(next.afterReady).toEqual([{ name: 'renewal-reminders', outcome: 'failed', message: 'interrupted: the server stopped during this run' }]);
    expect(next.second).toMatchObject({ outcome: 'ok', message: 'the second process ran it' });
  }, 60_000);
});
