import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { keepingStatements } from './statements.ts';

// The off-thread reads' worker (Database_.offThread in db.ts): its own read-only connection to the
// database file, running the SELECTs it is sent one after another and posting their rows back.
// A read that walks a million rows here holds this thread, not the server's event loop.

export interface ReadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}
/** Closes the connection, then the worker ends (terminate() tears the thread down without closing it). */
export interface StopRequest {
  stop: true;
}
export type ReadReply = { id: number; rows: unknown[] } | { id: number; error: string };

const { file } = workerData as { file: string };
const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('mmap_size = 0'); // as the server's reader: mapped pages would count in the process's memory
db.pragma('cache_size = -4096');

/** Prepared statements by SQL, the least recently used going first past 64 (the staff searches' few). */
const statements = keepingStatements(db, 64);

parentPort!.on('message', (m: ReadRequest | StopRequest) => {
  if ('stop' in m) {
    db.close();
    parentPort!.close(); // nothing else keeps the thread: it exits
    return;
  }
  const { id, sql, parameters } = m;
  let reply: ReadReply;
  try {
    const s = statements.prepare(sql) as Database.Statement;
    // The connection is read-only anyway; a statement that returns no rows has no business here.
    if (!s.reader) throw new Error('off-thread reads run SELECTs only');
    reply = { id, rows: s.all(...parameters) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
