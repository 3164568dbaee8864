import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type Transaction,
} from 'kysely';
import type { DB } from './schema.ts';
import type { ReadReply, ReadRequest, StopRequest } from './read-worker.ts';
import { keepingStatements } from './statements.ts';
import { privateDatabaseFile } from './private-dir.ts';

export type Db = Kysely<DB>;
export type Trx = Transaction<DB>;
/** A Kysely handle or an open transaction: repositories take either. */
export type Executor = Db | Trx;

export interface Database_ {
  /** The writer: every transaction, every write. */
  sqlite: Database.Database;
  db: Db;
  /**
   * A second, read-only connection for public reads: WAL gives it a consistent snapshot of what is
   * committed, so a guest never sees the rows of a transaction still open on the writer (the
   * writer's transactions await between statements, and other requests run meanwhile). The same
   * handle as `sqlite` only for an in-memory database, which a second connection cannot open.
   */
  reader: Database.Database;
  /**
   * Reads that may walk a large part of the database (staff text searches: a substring match
   * reads every ad, 3–6 s at a million) run here, in a worker thread with its own read-only
   * connection, so the server's event loop keeps answering meanwhile. Committed rows only, as
   * the reader; no transactions. `db` itself for an in-memory database.
   */
  offThread: Db;
  close(): Promise<void>;
}

/**
 * Opens the SQLite file (or ':memory:', or an in-memory copy of a serialized database) with our
 * pragmas. A bulk loader that changes the journal mode opens it without the read connection.
 */
export function openDatabase(source: string | Buffer, opts: { readConnection?: boolean; offThreadIdleMs?: number } = {}): Database_ {
  const onDisk = typeof source === 'string' && source !== ':memory:';
  if (onDisk) privateDatabaseFile(source);
  const sqlite = typeof source === 'string' ? new Database(source) : new Database(source);
  applyPragmas(sqlite, onDisk);
  trackWrites(sqlite);
  let reader = sqlite;
  if (onDisk && opts.readConnection !== false) {
    reader = new Database(source, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
    // No memory map: mapped pages of a 2 GB file count in the process's resident memory, pages
    // read through read() are the kernel's cache and do not. 16 MiB of SQLite's own cache holds
    // the indexes' upper levels and the hot rows.
    reader.pragma('mmap_size = 0');
    reader.pragma('cache_size = -16384');
  }
  const db = new Kysely<DB>({ dialect: new WriteFirstSqliteDialect({ database: keepingStatements(sqlite) }) });
  const offThread = reader !== sqlite ? new Kysely<DB>({ dialect: new ReadWorkerDialect(source as string, opts.offThreadIdleMs ?? READ_WORKER_IDLE_MS) }) : db;
  return {
    sqlite,
    db,
    reader,
    offThread,
    async close() {
      if (offThread !== db) await offThread.destroy();
      if (reader !== sqlite) reader.close();
      await db.destroy(); // closes the writer's better-sqlite3 handle too, once Kysely has used it
      if (sqlite.open) sqlite.close(); // a database only ever read and written without Kysely
    },
  };
}

/** An idle read worker is stopped after this long: it holds ~17–26 MB (a V8 isolate, a connection). */
const READ_WORKER_IDLE_MS = 60_000;

/**
 * Kysely's SQLite dialect with its statements run by a worker thread (read-worker.ts), started on
 * the first read (31–48 ms), held by the process only while a read is on its way, and stopped
 * after a minute without one.
 */
class ReadWorkerDialect implements Dialect {
  readonly #file: string;
  readonly #idleMs: number;
  constructor(file: string, idleMs: number) {
    this.#file = file;
    this.#idleMs = idleMs;
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    return new ReadWorkerDriver(this.#file, this.#idleMs);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
}

class ReadWorkerDriver implements Driver {
  readonly #file: string;
  readonly #idleMs: number;
  #worker: Worker | undefined;
  #idle: NodeJS.Timeout | undefined;
  #next = 0;
  readonly #waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (err: Error) => void }>();

  constructor(file: string, idleMs: number) {
    this.#file = file;
    this.#idleMs = idleMs;
  }

  async init(): Promise<void> {}

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./read-worker.ts', import.meta.url), { workerData: { file: this.#file } });
    const failAll = (err: Error) => {
      if (this.#worker === worker) this.#worker = undefined; // the next read starts another
      for (const w of this.#waiting.values()) w.reject(err);
      this.#waiting.clear();
    };
    worker.on('message', (m: ReadReply) => {
      const w = this.#waiting.get(m.id);
      if (!w) return;
      this.#waiting.delete(m.id);
      if (!this.#waiting.size) {
        worker.unref();
        this.#idle = setTimeout(() => void this.destroy(), this.#idleMs).unref();
      }
      if ('error' in m) w.reject(new Error(m.error));
      else w.resolve(m.rows);
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the read worker stopped (exit code ${code})`)));
    worker.unref();
    return (this.#worker = worker);
  }

  #run(q: CompiledQuery): Promise<QueryResult<never>> {
    clearTimeout(this.#idle);
    const worker = this.#start();
    const id = ++this.#next;
    return new Promise<unknown[]>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.ref(); // a read on its way keeps the process up
      worker.postMessage({ id, sql: q.sql, parameters: q.parameters } satisfies ReadRequest);
    }).then((rows) => ({ rows: rows as never[] }));
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: <R>(q: CompiledQuery) => this.#run(q) as Promise<QueryResult<R>>,
      streamQuery: () => {
        throw new Error('off-thread reads do not stream');
      },
    };
  }

  async beginTransaction(): Promise<void> {
    throw new Error('off-thread reads take no transaction');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}

  /** Asks the worker to close its connection and end (terminate() would not close it); terminates it if it has not ended in 5 s. */
  async destroy(): Promise<void> {
    clearTimeout(this.#idle);
    const worker = this.#worker;
    this.#worker = undefined;
    if (!worker) return;
    const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ stop: true } satisfies StopRequest);
    const late = setTimeout(() => void worker.terminate(), 5_000);
    await ended;
    clearTimeout(late);
  }
}

/**
 * Every transaction of ours writes, so it starts with BEGIN IMMEDIATE: it takes the write lock at
 * once, waiting (busy_timeout) while another process holds it. Kysely's plain BEGIN is deferred:
 * a transaction that reads first and writes later fails at its first write with SQLITE_BUSY —
 * without waiting — whenever another process wrote in between (found by the ledger property test
 * with two servers on one file: a valid payment, redemption or review answered 500).
 */
class WriteFirstSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class WriteFirstSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new WriteFirstSqliteDriver(this.#config);
  }
}

/** How many statements that can change the database have run on a connection (see trackWrites). */
export interface WriteCounter {
  readonly n: number;
}

const writeCounters = new WeakMap<Database.Database, { n: number }>();
const EXECUTE = ['run', 'get', 'all', 'iterate'] as const;
const ENDS_TRANSACTION = /^\s*(commit|end|rollback|release)\b/i;

/**
 * Counts, in JavaScript, every execution of a statement that can change the database on this
 * connection: Kysely's and raw ones, INSERT … RETURNING included (any statement better-sqlite3
 * does not report as readonly), and every exec(). Read-side caches compare the count on each hit
 * instead of asking SQLite (even `SELECT total_changes()` is a statement step: on a hot cached
 * read it cut throughput by ~15 %). Counts before and after each execution, so a reader never
 * pairs a new count with old rows. Installed when the connection opens (openDatabase); calling it
 * again returns the same counter. Writers in other processes are not seen: readers recheck on a
 * timer for those.
 */
export function trackWrites(sqlite: Database.Database): WriteCounter {
  const known = writeCounters.get(sqlite);
  if (known) return known;
  const counter = { n: 0 };
  writeCounters.set(sqlite, counter);
  const counted =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      counter.n++;
      try {
        return fn(...args);
      } finally {
        counter.n++;
      }
    };
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const stmt = prepare(source);
    // SQLite calls COMMIT, ROLLBACK and RELEASE read-only, yet they are what makes a transaction's
    // writes visible (or takes them back) for a reader on another connection: they count too.
    if (!stmt.readonly || ENDS_TRANSACTION.test(source))
      for (const m of EXECUTE) (stmt as unknown as Record<string, unknown>)[m] = counted((stmt[m] as (...a: unknown[]) => unknown).bind(stmt));
    return stmt;
  }) as typeof sqlite.prepare;
  sqlite.exec = counted(sqlite.exec.bind(sqlite)) as typeof sqlite.exec;
  return counter;
}

export function applyPragmas(sqlite: Database.Database, onDisk: boolean): void {
  if (onDisk) {
    sqlite.pragma('journal_mode = WAL');
  }
  sqlite.pragma('foreign_keys = ON');
  // Deleted content is overwritten, not left in free pages: an erased account's ad text, e-mail or
  // phone must not stay readable in the file (`strings xg.sqlite`) and in every backup made after.
  sqlite.pragma('secure_delete = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('cache_size = -8192'); // 8 MiB page cache: the writer's rows; public reads go through the reader
}
