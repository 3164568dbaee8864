import path from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, freePort, type TestContext } from '../../test/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../test/fakes/smtp.ts';
import { diskIs, openHealthApp, type HealthApp } from './health.testkit.ts';
import type { WorkerMessage } from './health.alerts-worker.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const FAILING = '[XG] Health check failing: ';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The test SMTP relay (on `port`, or any), closed after the test. */
async function smtpOn(port?: number, opts: { acceptAfterMs?: number } = {}): Promise<SmtpSink> {
  const sink = await startSmtpSink({ port, ...opts });
  cleanups.push(() => sink.close());
  return sink;
}

/** A migrated database file with one admin: the file every server of a test opens. */
async function databaseFile(): Promise<{ ctx: TestContext; file: string; admin: string }> {
  const ctx = await createTestApp();
  cleanups.push(() => ctx.close());
  return { ctx, file: path.join(ctx.dataDir, 'xg.sqlite'), admin: (await asAdmin(ctx)).email };
}

/** A server on that file, mailing through `smtpUrl`; closed after the test unless stopped before. */
async function server(ctx: TestContext, smtpUrl: string): Promise<HealthApp> {
  const s = await openHealthApp(path.join(ctx.dataDir, 'xg.sqlite'), ctx.dataDir, smtpUrl);
  cleanups.push(() => s.close());
  return s;
}

/** Runs the checks with the disk full or fine, 5 minutes after the last run; a 503 (not recorded) fails the test. */
async function run(s: HealthApp, disk: 'full' | 'fine') {
  diskIs(s.app, disk);
  s.clock.advance(5 * 60_000);
  const rows = await s.app.deps.services.health.run();
  return Object.fromEntries(rows.map((r) => [r.name, r.status]));
}

const subjects = (sink: SmtpSink) => sink.mails.map((m) => m.subject).filter((s) => s.startsWith(FAILING));

// Staff are mailed once per failure until the check is ok again (README "Health"). Who was told is
// kept in the database: a server restarted (a deploy, a crash loop) or a second server on the same
// file does not mail a failure that goes on again, and two servers running their checks at once
// mail it once.
describe('health alerts survive a restart and are sent once by several servers', () => {
  it('a failure mailed once is not mailed again after a restart while it fails; ok and failing again, it is', async () => {
    const { ctx, admin } = await databaseFile();
    const smtp = await smtpOn();
    const first = await server(ctx, smtp.url);
    expect((await run(first, 'full')).disk).toBe('failing');
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`]);
    expect(smtp.mails[0].to).toEqual([admin]);
    await first.close();

    // The restarted server: the disk is still full.
    const second = await server(ctx, smtp.url);
    expect((await run(second, 'full')).disk).toBe('failing');
    expect((await run(second, 'full')).disk).toBe('failing');
    await second.close();
    const third = await server(ctx, smtp.url);
    expect((await run(third, 'full')).disk).toBe('failing');
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`]);

    // Freed, then full again: a new failure, mailed, once; and remembered across a restart too.
    expect((await run(third, 'fine')).disk).toBe('ok');
    await third.close();
    const fourth = await server(ctx, smtp.url);
    expect((await run(fourth, 'full')).disk).toBe('failing');
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`, `${FAILING}Disk space`]);
    await fourth.close();
    const fifth = await server(ctx, smtp.url);
    expect((await run(fifth, 'full')).disk).toBe('failing');
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`, `${FAILING}Disk space`]);
  }, 60_000);

  it('an alert that could not be sent (SMTP down) is sent by the restarted server once SMTP is back', async () => {
    const { ctx, admin } = await databaseFile();
    const port = await freePort();
    const url = `smtp://127.0.0.1:${port}`;
    // Nothing listens at SMTP_URL: the disk and smtp checks fail, the alert cannot go out.
    const first = await server(ctx, url);
    expect(await run(first, 'full')).toMatchObject({ disk: 'failing', smtp: 'failing' });
    await first.close();

    const smtp = await smtpOn(port);
    const second = await server(ctx, url);
    expect(await run(second, 'full')).toMatchObject({ disk: 'failing', smtp: 'ok' });
    await run(second, 'full');
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`]);
    expect(smtp.mails[0].to).toEqual([admin]);
  }, 60_000);

  // A server that died while sending (killed in a deploy) leaves its claim, never marked sent: no
  // other server mails the failure while a sender could still be on its way, but one does after
  // 15 minutes, rather than never.
  it('the claim of a server that died while mailing is taken over after 15 minutes', async () => {
    const { ctx } = await databaseFile();
    const smtp = await smtpOn();
    const s = await server(ctx, smtp.url);
    const claimedAt = new Date(s.clock.now().getTime() + 5 * 60_000).toISOString(); // the time of s's next run
    await s.app.deps.db.insertInto('health_alerts').values({ name: 'disk', claim: 'dead-server', claimed_at: claimedAt, alerted_at: null }).execute();
    expect((await run(s, 'full')).disk).toBe('failing');
    s.clock.advance(9 * 60_000);
    expect((await run(s, 'full')).disk).toBe('failing'); // 14 minutes after the claim
    expect(subjects(smtp)).toEqual([]);
    s.clock.advance(60_000);
    await run(s, 'full');
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`]);
    await run(s, 'full');
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`]);
  }, 60_000);

  // While the database cannot be written no claim can be taken: the server still mails what fails
  // (the database itself, say), but not a failure the database says staff were told about.
  it('while the database cannot be written, a failure already mailed before a restart is not mailed again', async () => {
    const { ctx, file } = await databaseFile();
    const smtp = await smtpOn();
    const first = await server(ctx, smtp.url);
    expect((await run(first, 'full')).disk).toBe('failing');
    await first.close();
    const second = await server(ctx, smtp.url);
    diskIs(second.app, 'full');
    const lock = new Database(file);
    lock.exec('BEGIN IMMEDIATE'); // another connection holds the write lock
    try {
      await expect(second.app.deps.services.health.run()).rejects.toMatchObject({ code: 'health.not_recorded' });
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
    // (The smtp check may fail too: the thread waits for the lock, and the relay's answer with it.)
    const mailed = () =>
      subjects(smtp).map((s) =>
        s
          .slice(FAILING.length)
          .split(', ')
          .filter((name) => name !== 'E-mail (SMTP)'),
      );
    expect(mailed()).toEqual([['Disk space'], ['Database']]);
    // Written again: the database check is ok; the disk, told about, is not mailed again.
    expect(await run(second, 'full')).toMatchObject({ database: 'ok', disk: 'failing' });
    expect(mailed()).toEqual([['Disk space'], ['Database']]);
  }, 60_000);

  // Two servers in one test process cannot write at the same instant (a write waiting for the lock
  // blocks the thread the other needs to finish): their runs interleave, one running its checks
  // while the other's e-mail is on its way. The processes' test below runs them at the same instant.
  it('two servers on one file: one running its checks while the other is mailing a failure does not mail it too', async () => {
    const { ctx } = await databaseFile();
    // A relay that takes its time to accept an e-mail: the other server runs meanwhile.
    const smtp = await smtpOn(undefined, { acceptAfterMs: 1500 });
    const a = await server(ctx, smtp.url);
    const b = await server(ctx, smtp.url);
    const whileMailing = async (mailing: HealthApp, other: HealthApp, n: number) => {
      const first = run(mailing, 'full');
      await smtp.waitFor(n);
      expect((await run(other, 'full')).disk).toBe('failing');
      await first;
    };
    await whileMailing(a, b, 1);
    for (const s of [b, a, b]) expect((await run(s, 'full')).disk).toBe('failing');
    await sleep(200);
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`]);
    // Ok again (on b), then failing: mailed once more, by whichever runs first.
    expect((await run(b, 'fine')).disk).toBe('ok');
    await whileMailing(a, b, 2);
    await run(b, 'full');
    await sleep(200);
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`, `${FAILING}Disk space`]);
  }, 60_000);

  it('three server processes on one file running their checks at the same instant mail a failure once', async () => {
    const { ctx, file } = await databaseFile();
    const smtp = await smtpOn(undefined, { acceptAfterMs: 200 });
    const main = await server(ctx, smtp.url);
    const children = await Promise.all([0, 1].map(() => child(file, ctx.dataDir, smtp.url)));
    const round = async (disk: 'full' | 'fine') => {
      const goAt = Date.now() + 300;
      diskIs(main.app, disk);
      main.clock.advance(5 * 60_000);
      const own = sleep(goAt - Date.now()).then(() => main.app.deps.services.health.run());
      const answers = await Promise.all([
        ...children.map((c) => c.run({ type: 'run', goAt, now: main.clock.now().toISOString(), disk })),
        own.then(() => ({})),
      ]);
      expect(answers.filter((x) => 'error' in x && x.error)).toEqual([]);
    };
    await round('full');
    await round('full');
    await sleep(500);
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`]);
    await round('fine');
    await round('full');
    await round('full');
    await sleep(500);
    expect(subjects(smtp)).toEqual([`${FAILING}Disk space`, `${FAILING}Disk space`]);
  }, 60_000);
});

/** A second server process (health.alerts-worker.ts) on the file; stopped after the test. */
async function child(file: string, dataDir: string, smtpUrl: string) {
  const proc: ChildProcess = fork(path.resolve(import.meta.dirname, 'health.alerts-worker.ts'), [file, dataDir, smtpUrl], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.send({ type: 'exit' } satisfies WorkerMessage);
        setTimeout(() => proc.kill(), 5000).unref();
      }),
  );
  await new Promise<void>((resolve, reject) => {
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`health worker exited early (${code})`)));
    proc.once('message', () => resolve());
  });
  proc.removeAllListeners('exit');
  return {
    run: (m: WorkerMessage) =>
      new Promise<{ error?: string }>((resolve) => {
        proc.once('message', (answer: { error?: string }) => resolve(answer));
        proc.send(m);
      }),
  };
}
