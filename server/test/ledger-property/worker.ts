import { openFileApp } from './file-app.ts';
import { send as ask, type Answer, type HttpCall } from './http.ts';

// One worker process of the ledger property test: its own app and its own SQLite connection on the
// shared database file. For each round it sets its clock to the round's time, waits for the
// agreed wall-clock instant (every worker starts together), fires all its requests at once and
// reports the answers, when each ran, and the cause of any 5xx.

export interface RoundMessage {
  type: 'round';
  id: number;
  now: number;
  goAt: number;
  calls: HttpCall[];
}
export interface DoneMessage {
  type: 'done';
  id: number;
  answers: Answer[];
  spans: [number, number][];
  errors: string[];
}

const [file, dataDir] = process.argv.slice(2);
const errors: string[] = [];
const { app, clock, close } = await openFileApp(file, dataDir, { onError: (line) => errors.push(line) });
const wallNow = () => performance.timeOrigin + performance.now();
const send = (m: DoneMessage | { type: 'ready' }) => {
  if (!process.send) throw new Error('worker.ts runs as a child process with an IPC channel (fork)');
  process.send(m);
};

async function onMessage(m: RoundMessage | { type: 'exit' }): Promise<void> {
  if (m.type === 'exit') {
    await close();
    process.exit(0);
    return;
  }
  clock.set(new Date(m.now));
  errors.length = 0;
  const wait = m.goAt - Date.now();
  if (wait > 3) await new Promise((r) => setTimeout(r, wait - 3));
  while (Date.now() < m.goAt) {
    /* spin: start within a millisecond of the other workers */
  }
  const results = await Promise.all(
    m.calls.map(async (call) => {
      const start = wallNow();
      const answer = await ask(app, call);
      return { answer, span: [start, wallNow()] as [number, number] };
    }),
  );
  const done: DoneMessage = { type: 'done', id: m.id, answers: results.map((r) => r.answer), spans: results.map((r) => r.span), errors: [...errors] };
  send(done);
}

process.on('message', (m: RoundMessage | { type: 'exit' }) => {
  // A round that fails ends this worker with its error on stderr: the pool then fails the round
  // at once (pool.ts), instead of waiting for an answer that will not come.
  onMessage(m).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
process.on('disconnect', () => process.exit(0)); // the test process went away
send({ type: 'ready' });
