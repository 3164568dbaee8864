import { NEVER_BUSY } from '../../core/load.ts';
import type { App } from '../../app.ts';
import { openFileApp, type FileApp } from '../../test/ledger-property/file-app.ts';
import { DEFAULT_HEALTH_OPTIONS } from './health.service.ts';

// A server on an existing database file, mailing through SMTP_URL (the test SMTP relay): what a
// restart or a second process is to the health alerts. Without the harness (it needs vitest), so a
// child process (health.alerts-worker.ts) opens one too.

export type HealthApp = FileApp;

export function openHealthApp(file: string, dataDir: string, smtpUrl: string): Promise<HealthApp> {
  return openFileApp(file, dataDir, { env: { SMTP_URL: smtpUrl, MAIL_FROM: 'xg@example.com' }, mailer: 'config', load: NEVER_BUSY });
}

/** Thresholds no real disk crosses, or every one does: the tests do not depend on this machine's disk. */
export const DISK = { fine: { degradedBelow: 0, failingBelow: 0 }, full: { degradedBelow: 1.01, failingBelow: 1.01 } };

/** Sets the disk check to pass or fail (the other checks as they are). */
export function diskIs(app: App, disk: keyof typeof DISK): void {
  app.deps.services.health.options = { ...DEFAULT_HEALTH_OPTIONS, disk: DISK[disk], timeoutMs: 5000 };
}
