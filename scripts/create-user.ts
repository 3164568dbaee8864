import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, loadConfig } from '../server/core/config.ts';
import { openDatabase } from '../server/core/db.ts';
import { NewerDatabaseError, migrate } from '../server/core/migrate.ts';
import { systemClock } from '../server/core/clock.ts';
import { createMailer } from '../server/core/mailer.ts';
import { createPasswordHasher } from '../server/core/passwords.ts';
import { Hub } from '../server/core/realtime.ts';
import { DEFAULT_LIMITS, type AppDeps } from '../server/core/deps.ts';
import { NEVER_BUSY } from '../server/core/load.ts';
import { AppError } from '../server/core/errors.ts';
import type { StaffRole } from '../server/core/schema.ts';
import { AuthService } from '../server/modules/auth/auth.service.ts';
import { loadDotEnv } from '../server/core/dotenv.ts';
import { privateDir } from '../server/core/private-dir.ts';
import { commandArgs, usageError } from './cli.ts';

loadDotEnv(); // the same settings as the server (DATA_DIR above all)

const HELP = `Usage: npm run create-user -- --email <e-mail> [--password <password>] [--role ADMIN_USER]
                           [--role MASTER_USER] [--nickname <nickname>]

Adds an approved account to DATA_DIR/xg.sqlite (DATA_DIR defaults to ./data), applying pending
migrations first. Every account holds PROVIDER_USER; each --role adds ADMIN_USER or MASTER_USER.
Without --password a random one is generated and printed once. The nickname defaults to the part
of the e-mail before the @. The creation is recorded in the audit log.

Exit codes: 0 created, 1 refused (e-mail taken, weak password, a database newer than the code…),
2 bad arguments.`;

const STAFF_ROLES: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'];

const args = commandArgs(HELP, {
  email: { type: 'string' },
  password: { type: 'string' },
  role: { type: 'string', multiple: true },
  nickname: { type: 'string' },
});
if (!args.email) usageError(HELP, '--email is required.');
const roles = (args.role ?? []).map((r) => r.trim().toUpperCase());
const badRole = roles.find((r) => !STAFF_ROLES.includes(r as StaffRole));
if (badRole) usageError(HELP, `Unknown role "${badRole}": use ADMIN_USER or MASTER_USER.`);

/** A nickname that passes the rules, from the e-mail's local part. */
function nicknameFrom(email: string): string {
  const base = email
    .split('@')[0]
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .slice(0, 30);
  return base.length >= 3 ? base : `${base}_user`.slice(0, 30);
}

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

const generated = args.password === undefined;
const password = args.password ?? randomBytes(12).toString('base64url');
privateDir(config.dataDir); // 0700, as the server makes it
const file = path.join(config.dataDir, 'xg.sqlite');
const database = openDatabase(file);
const log = pino({ level: 'warn' }) as unknown as FastifyBaseLogger;
// The one service this script needs, without the rest of the app.
const deps = {
  config,
  database,
  db: database.db,
  clock: systemClock,
  mailer: createMailer(config, log),
  hasher: createPasswordHasher(),
  hub: new Hub(),
  limits: DEFAULT_LIMITS,
  load: NEVER_BUSY,
  log,
  distDir: null,
} satisfies Omit<AppDeps, 'services'>;

let code = 0;
try {
  migrate(database.sqlite);
  const user = await new AuthService(deps as AppDeps).createUser({
    email: args.email,
    password,
    nickname: args.nickname ?? nicknameFrom(args.email.trim()),
    roles: roles as StaffRole[],
    status: 'approved',
    // In the account's transaction: an audit row that cannot be written leaves no account behind.
    audit: { actor: null, action: 'user.create', after: { via: 'create-user script' } },
  });
  console.log(`Created ${user.email} (id ${user.id}), status ${user.userStatus}, roles ${user.userRoles.join(', ')} in ${file}.`);
  if (generated) console.log(`Generated password (shown once): ${password}`);
} catch (e) {
  // A database newer than the code is refused in its own sentence (upgrade the code), as the server does.
  if (e instanceof NewerDatabaseError) console.error(e.message);
  else if (e instanceof AppError) console.error(`Refused: ${e.message}`);
  else throw e;
  code = 1;
} finally {
  await database.close();
}
process.exit(code);
