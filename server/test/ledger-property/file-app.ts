import { loadConfig, type Config } from '../../core/config.ts';
import { ManualClock } from '../../core/clock.ts';
import { openDatabase } from '../../core/db.ts';
import { migrate } from '../../core/migrate.ts';
import type { MailMessage, Mailer } from '../../core/mailer.ts';
import { createPasswordHasher } from '../../core/passwords.ts';
import type { Load } from '../../core/load.ts';
import { buildApp, type App } from '../../app.ts';
import { seedLocations } from '../../modules/locations/locations.seed.ts';

// The whole application over a database FILE (the harness's apps use an in-memory copy, which
// another process cannot share). The ledger property test opens one of these in the test process
// and one in each worker process, all on the same file, as several servers or a server and a
// script would.

class DroppedMailer implements Mailer {
  readonly kind = 'outbox' as const;
  readonly sent: MailMessage[] = [];
  async send(m: MailMessage) {
    this.sent.push(m);
  }
  async verify() {}
}

/** Creates the file: migrated and seeded (states and cities), as main.ts does on first start. */
export function createDatabaseFile(file: string): void {
  const d = openDatabase(file);
  try {
    migrate(d.sqlite);
    seedLocations(d.sqlite);
  } finally {
    d.sqlite.close();
  }
}

export interface FileApp {
  app: App;
  clock: ManualClock;
  close: () => Promise<void>;
}

export interface FileAppOptions {
  /** Settings besides DATA_DIR, as a server reads them from its environment. */
  env?: Record<string, string>;
  /** The settings whole (another app's, sharing its secrets), instead of `env`. */
  config?: Config;
  /** Its mail: dropped unless given; 'config' for the mailer the settings name (SMTP_URL). */
  mailer?: Mailer | 'config';
  clock?: ManualClock;
  load?: Load;
  /** Receives the log lines of 5xx answers (an unhandled error is logged with its cause), so a worker can report why it answered 500. */
  onError?: (line: string) => void;
}

/**
 * Builds an app over an existing, migrated file: what a second server, a restart or a worker
 * process is (each its own connections), with limits high enough never to refuse.
 */
export async function openFileApp(file: string, dataDir: string, opts: FileAppOptions = {}): Promise<FileApp> {
  const config = opts.config ?? loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SEED_LOCATIONS: '0', CRON: '0', ...opts.env });
  const database = openDatabase(file);
  const clock = opts.clock ?? new ManualClock();
  const { onError } = opts;
  const app = await buildApp({
    config,
    database,
    clock,
    mailer: opts.mailer === 'config' ? undefined : (opts.mailer ?? new DroppedMailer()),
    load: opts.load,
    hasher: createPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
    limits: {
      authAttemptsPerWindow: 100_000,
      authAccountPerHour: 100_000,
      avatarUpdatesPerHour: 1000,
      reportsPerHour: 1000,
      adsPerDay: 100_000,
      apiPerMinute: 0,
    },
    distDir: null,
    logger: onError ? { level: 'error', stream: { write: (line: string) => onError(line) } } : false,
  });
  await app.ready();
  let closed = false;
  return {
    app,
    clock,
    /** Stops the server (a restart's first half); again, does nothing. */
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await database.close();
    },
  };
}
