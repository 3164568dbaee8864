import fs from 'node:fs';
import path from 'node:path';

/** The .env beside package.json: found from this file, wherever the process was started from. */
const PROJECT_ENV = path.resolve(import.meta.dirname, '../../.env');

/**
 * Reads the .env file beside package.json (the project root, as README says) when there is one;
 * only when there is none, the working directory's (a copy of the code without its own .env, run
 * from a folder that has one). A server started by path from elsewhere (a systemd unit without
 * WorkingDirectory, `node /opt/xg/server/main.ts`) so reads the operator's settings, not the
 * defaults. A variable already in the environment wins over the file. The server and the
 * command-line tools (create-user, backup, restore, btcpay:connect, seed-locations) read the same
 * settings.
 */
export function loadDotEnv(): void {
  const file = fs.existsSync(PROJECT_ENV) ? PROJECT_ENV : path.resolve('.env');
  try {
    process.loadEnvFile(file);
  } catch {
    /* no .env: the environment alone */
  }
}
