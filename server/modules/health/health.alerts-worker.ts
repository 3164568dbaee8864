import { diskIs, openHealthApp, DISK } from './health.testkit.ts';

// A second server process for health.alerts-persist.test.ts: its own app and connection on the
// test's database file, mailing through the test's SMTP relay. Told to run the checks at an agreed
// wall-clock instant, so that it and the test's own server run them at once.

// `now`: the test's server's clock, so that the servers agree on the time as real ones do (a claim's age is read by all).
export type WorkerMessage = { type: 'run'; goAt: number; now: string; disk: keyof typeof DISK } | { type: 'exit' };

const [file, dataDir, smtpUrl] = process.argv.slice(2);
const server = await openHealthApp(file, dataDir, smtpUrl);
const send = (m: { type: 'ready' } | { type: 'done'; error?: string }) => process.send!(m);

process.on('message', (m: WorkerMessage) => {
  if (m.type === 'exit') {
    void server.close().then(() => process.exit(0));
    return;
  }
  diskIs(server.app, m.disk);
  server.clock.set(m.now);
  setTimeout(
    () => {
      server.app.deps.services.health.run().then(
        () => send({ type: 'done' }),
        (err: unknown) => send({ type: 'done', error: String(err) }),
      );
    },
    Math.max(0, m.goAt - Date.now()),
  );
});
send({ type: 'ready' });
