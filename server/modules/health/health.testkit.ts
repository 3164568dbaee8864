import { loadConfig } from '../../core/config.ts';
import { ManualClock } from '../../core/clock.ts';
import { openDatabase } from '../../core/db.ts';
import { createPasswordHasher } from '../../core/passwords.ts';
import { NEVER_BUSY } from '../../core/load.ts';
import { buildApp, type App } from '../../app.ts';
import { DEFAULT_HEALTH_OPTIONS } from './health.service.ts';

// A server on an existing database file, mailing through SMTP_URL (the test SMTP relay): what a
// restart or a second process is to the health alerts. Without the harness (it needs vitest), so a
// child process (health.alerts-worker.ts) opens one too.

export interface HealthApp {
  app: App;
  clock: ManualClock;
  close(): Promise<void>;
}

export async function openHealthApp(file: string, dataDir: string, smtpUrl: string): Promise<HealthApp> {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SEED_LOCATIONS: '0', CRON: '0', SMTP_URL: smtpUrl, MAIL_FROM: 'xg@example.com' });
  const database = openDatabase(file);
  const clock = new ManualClock();
  const app = await buildApp({
    config,
    database,
    clock,
    hasher: createPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
    distDir: null,
    load: NEVER_BUSY,
    logger: false,
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

/** Thresholds no real disk crosses, or every one does: the tests do not depend on this machine's disk. */
export const DISK = { fine: { degradedBelow: 0, failingBelow: 0 }, full: { degradedBelow: 1.01, failingBelow: 1.01 } };

/** Sets the disk check to pass or fail (the other checks as they are). */
export function diskIs(app: App, disk: keyof typeof DISK): void {
  app.deps.services.health.options = { ...DEFAULT_HEALTH_OPTIONS, disk: DISK[disk], timeoutMs: 5000 };
}
