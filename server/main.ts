import { flushCompileCache } from 'node:module';
import path from 'node:path';
import { ConfigError, loadConfig } from './core/config.ts';
import { openDatabase } from './core/db.ts';
import { NewerDatabaseError, migrate } from './core/migrate.ts';
import { privateDir } from './core/private-dir.ts';
import { loadDotEnv } from './core/dotenv.ts';
import { buildApp } from './app.ts';
import { seedLocations } from './modules/locations/locations.seed.ts';
import { firstMasterProblem } from './core/first-master.ts';

// Process entry only: config → open db → migrate → buildApp → listen → graceful close.
// A .env file beside package.json is read when present (the environment wins over it).
loadDotEnv();
let config;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}

// The data folder and the database file are the server user's alone (0700, 0600), as the backups
// are: made so, or closed at start when an older version left them open.
privateDir(config.dataDir);
const database = openDatabase(path.join(config.dataDir, 'xg.sqlite'));
let applied: string[] = [];
try {
  applied = migrate(database.sqlite);
} catch (e) {
  if (!(e instanceof NewerDatabaseError)) throw e;
  console.error(e.message); // the one sentence that matters: upgrade the code
  await database.close();
  process.exit(1);
}
// XG_RELAXED_LIMITS=1 lifts the sign-in and posting limits for the end-to-end suite, which signs in
// many times from 127.0.0.1; it is refused in production.
const relaxed = process.env.XG_RELAXED_LIMITS === '1';
if (relaxed && config.isProduction) {
  console.error('XG_RELAXED_LIMITS is not allowed in production');
  process.exit(1);
}
const app = await buildApp({
  config,
  database,
  // XG_DIST_DIR serves a build other than ./dist (the e2e suite serves its own copy, so a build
  // made meanwhile in the same checkout cannot pull assets from under a running test).
  distDir: process.env.XG_DIST_DIR || undefined,
  limits: relaxed
    ? {
        authAttemptsPerWindow: 10_000,
        authAccountPerHour: 10_000,
        avatarUpdatesPerHour: 10_000,
        socketHandshakesPerMinute: 10_000,
        adsPerDay: 10_000,
        reportsPerHour: 10_000,
        apiPerMinute: 0,
        sitemapPerMinute: 10_000,
      }
    : undefined,
});
if (applied.length) app.log.info({ applied }, 'database migrated');
if (config.secretsCreated)
  app.log.warn(
    { file: config.secretsFile },
    'generated the session and webhook secrets (set JWT_SECRET / BTCPAY_WEBHOOK_SECRET to choose them); keep this file with the database',
  );
if (config.seedLocations) {
  const seeded = seedLocations(database.sqlite);
  if (seeded.cities || seeded.states) app.log.info(seeded, 'locations seeded');
}

let master: Awaited<ReturnType<typeof app.deps.services.auth.ensureMaster>>;
try {
  master = await app.deps.services.auth.ensureMaster();
} catch (e) {
  // A setting the first master cannot be made from is said as the other settings' problems are.
  const problem = firstMasterProblem(e);
  if (problem === null) throw e;
  console.error(problem);
  await app.close();
  await database.close();
  process.exit(1);
}
if (master?.generatedPassword) {
  // Printed once, on the start that creates the account; never stored in clear.
  console.log(
    `\n  First master account created:\n    e-mail:   ${master.email}\n    password: ${master.generatedPassword}\n  Sign in at ${config.publicUrl}/auth/login and change the password.\n`,
  );
} else if (master) {
  app.log.info({ email: master.email }, 'master account created from MASTER_EMAIL');
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  // close() ends the connections idle when it starts; a request in flight is answered, and its
  // keep-alive connection then idles on (72 s) and holds close() open: end those as they come.
  const idle = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
    clearInterval(idle);
    await database.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (e) {
  // A port taken or an address not this machine's is a setting to correct, said in one line.
  console.error(listenProblem(e as NodeJS.ErrnoException, config.host, config.port));
  closing = true;
  await app.close().catch(() => undefined);
  await database.close();
  process.exit(1);
}
// `npm start` keeps Node's compile cache (NODE_COMPILE_CACHE in package.json): the server's
// TypeScript with its types stripped, and the compiled code. Node writes it at exit; written now,
// a server that never exits cleanly (killed, out of memory) still starts from it next time.
flushCompileCache();
console.log(`XG Marketplace is serving on ${config.publicUrl}`);

/** The one line an operator reads when the server cannot listen: which setting to change, and how. */
function listenProblem(e: NodeJS.ErrnoException, host: string, port: number): string {
  switch (e.code) {
    case 'EADDRINUSE':
      return `PORT ${port} is already in use on ${host} (another process, or this server still running): stop it or set another PORT.`;
    case 'EACCES':
      return `PORT ${port} needs privileges this user lacks (ports below 1024): set another PORT and let a reverse proxy serve 80/443.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAFNOSUPPORT':
      return `HOST ${host} is not an address of this machine (0.0.0.0 listens on all of them).`;
    default:
      return `Cannot listen on HOST ${host}, PORT ${port}: ${e.message}`;
  }
}
