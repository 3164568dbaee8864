import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { openDatabase } from '../server/core/db.ts';
import { migrate } from '../server/core/migrate.ts';
import { newId } from '../server/core/ids.ts';
import { seedLocations } from '../server/modules/locations/locations.seed.ts';
import { storeUpload } from '../server/modules/uploads/uploads.storage.ts';
import type { StoredPhoto } from '../server/modules/ads/ads.dto.ts';
import { adText, makeRng } from './bench-text.ts';

const HELP = `Usage: node scripts/seed-ads.ts [--count N] [--data-dir DIR] [--owners K] [--seed S]

Adds N realistic, approved and live ads (default 1000) to DIR/xg.sqlite (DIR defaults to DATA_DIR
or ./data), spread over US cities in proportion to their population, over the three listing types,
with bumps spread over the last 30 days. Pending migrations and the locations are applied first.
K seeded owners (default N/50) hold the ads; they are approved and cannot sign in. Eight abstract
placeholder photos are written to DIR/uploads/ads and shared by every seeded ad. S seeds the
random generator (default 1), so the same arguments give the same text.

For development and benchmarks only: never run it against a production database.
1,000,000 ads take under a minute (the public indexes and the full-text index are built once,
after the rows are in, instead of row by row).`;

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    'data-dir': { type: 'string' },
    owners: { type: 'string' },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const count = Number(args.count);
if (!Number.isInteger(count) || count < 1 || count > 10_000_000) {
  console.error(`--count must be a whole number from 1 to 10,000,000\n\n${HELP}`);
  process.exit(2);
}
const ownerCount = Math.max(1, Number(args.owners ?? Math.ceil(count / 50)));
const dataDir = path.resolve(args['data-dir'] ?? (process.env.DATA_DIR?.trim() || './data'));
fs.mkdirSync(dataDir, { recursive: true });
const file = path.join(dataDir, 'xg.sqlite');
const t0 = performance.now();
const lap = (what: string) => console.log(`${what.padEnd(34)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const database = openDatabase(file, { readConnection: false }); // it switches the journal off while loading
const db = database.sqlite;
migrate(db);
seedLocations(db);
// A seed is re-run, not recovered: no journal and a large cache while loading, WAL again at the end.
db.pragma('journal_mode = DELETE');
db.pragma('journal_mode = OFF');
db.pragma('synchronous = OFF');
db.pragma('cache_size = -1000000');
const rand = makeRng(Number(args.seed));

// Cities weighted by population: a cumulative table and a binary search per ad.
const cities = db
  .prepare('SELECT c.id, c.state_id, c.population FROM cities c JOIN states s ON s.id = c.state_id WHERE c.enabled = 1 AND s.enabled = 1')
  .all() as {
  id: string;
  state_id: string;
  population: number;
}[];
const cumulative = new Float64Array(cities.length);
let sum = 0;
cities.forEach((c, i) => (cumulative[i] = sum += c.population));
function pickCity() {
  const x = rand() * sum;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return cities[lo];
}

// Placeholder photos: abstract gradients, no people.
const photos: StoredPhoto[] = [];
const palette = ['#5b2a86', '#7d3cba', '#a64ca6', '#3c6e71', '#c06c84', '#355c7d', '#6c5b7b', '#f67280'];
for (const color of palette) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="#1b1b2f"/></linearGradient></defs><rect width="900" height="1200" fill="url(#g)"/><circle cx="620" cy="380" r="260" fill="#ffffff" fill-opacity="0.08"/></svg>`;
  const large = await sharp(Buffer.from(svg)).webp({ quality: 70 }).toBuffer();
  const thumb = await sharp(Buffer.from(svg)).resize(300, 400).webp({ quality: 60 }).toBuffer();
  photos.push({
    path: storeUpload(dataDir, 'ads', large),
    width: 900,
    height: 1200,
    thumbPath: storeUpload(dataDir, 'ads', thumb),
    thumbWidth: 300,
    thumbHeight: 400,
  });
}

const now = Date.now();
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
// Millions of timestamps: Date#toISOString costs about a microsecond each, this a tenth of that.
const dayPrefix = new Map<number, string>();
const two = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
function fastIso(ms: number): string {
  const day = Math.floor(ms / DAY);
  let prefix = dayPrefix.get(day);
  if (!prefix) dayPrefix.set(day, (prefix = new Date(day * DAY).toISOString().slice(0, 11)));
  let r = ms - day * DAY;
  const h = Math.floor(r / 3_600_000);
  r -= h * 3_600_000;
  const m = Math.floor(r / 60_000);
  r -= m * 60_000;
  const sec = Math.floor(r / 1000);
  return `${prefix}${two[h]}:${two[m]}:${two[sec]}.${String(r - sec * 1000).padStart(3, '0')}Z`;
}
// Seeded ad ids: same alphabet and length as core/ids.ts newId(), drawn from one big random buffer.
function manyIds(n: number): string[] {
  const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(n * 20);
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    let id = '';
    for (let j = 0; j < 20; j++) id += ALPHABET[bytes[i * 20 + j] % 36];
    out[i] = id;
  }
  return out;
}

// Owners: approved providers with an unusable password hash and a USD wallet.
const owners: string[] = [];
db.transaction(() => {
  const u = db.prepare(
    "INSERT INTO users (id, email, password_hash, nickname, status, approved_at, created_at, updated_at) VALUES (?, ?, '!seeded-no-login', ?, 'approved', ?, ?, ?)",
  );
  const r = db.prepare("INSERT INTO user_roles (user_id, role) VALUES (?, 'PROVIDER_USER')");
  const w = db.prepare("INSERT INTO wallets (id, user_id, wallet_type, created_at) VALUES (?, ?, 'USD', ?)");
  for (let i = 0; i < ownerCount; i++) {
    const id = newId();
    u.run(id, `seed-${id}@seed.invalid`, `seed_${id.slice(0, 12)}`, iso(now - 60 * DAY), iso(now - 60 * DAY), iso(now - 60 * DAY));
    r.run(id);
    w.run(newId(), id, iso(now - 60 * DAY));
    owners.push(id);
  }
})();
lap(`${ownerCount} owners`);

// The secondary indexes and the insert triggers (full-text index, cards and change log) are dropped
// for the bulk insert; what they keep is built once below.
const deferred = db
  .prepare(
    "SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN ('ads', 'ads_cards') AND sql IS NOT NULL AND (type = 'index' OR (type = 'trigger' AND name IN ('ads_fts_insert', 'ads_cards_insert')))",
  )
  .all() as {
  type: string;
  name: string;
  sql: string;
}[];
const firstSeq = (db.prepare('SELECT coalesce(max(bump_seq), 0) AS m FROM ads').get() as { m: number }).m + 1;
for (const d of deferred) db.exec(`DROP ${d.type.toUpperCase()} ${d.name}`);
try {
  // Bumps spread over the last 30 days, in increasing order, so bump_seq follows bumped_at.
  const insert = db.prepare(`INSERT INTO ads (id, owner_id, listing_type, title, description, age, state_id, city_id, phone, photos_json, status, online,
    price_cents, duration_days, paid_at, bump_seq, bumped_at, published_at, expires_at, created_at, updated_at, visible)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'approved', ?, 1500, 30, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const types = ['female_esc', 'female_esc', 'female_esc', 'female_rub', 'female_rub', 'shemale_esc'];
  // Ids in increasing order append to the primary-key index instead of scattering over it.
  const ids = manyIds(count).sort();
  const photoJson = photos.map((_, i) => JSON.stringify([photos[i], photos[(i + 3) % photos.length]]));
  const BATCH = 50_000;
  for (let start = 0; start < count; start += BATCH) {
    db.transaction(() => {
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        const bumped = now - 30 * DAY + Math.floor(((i + 1) / (count + 1)) * 30 * DAY);
        const published = bumped - Math.floor(rand() * 5 * DAY);
        const city = pickCity();
        const { title, description } = adText(rand);
        const online = rand() < 0.95 ? 1 : 0;
        const bumpedAt = fastIso(bumped);
        const created = fastIso(published - 3_600_000);
        const phone = `+1${200 + Math.floor(rand() * 800)}555${String(Math.floor(rand() * 10000)).padStart(4, '0')}`;
        const age = rand() < 0.1 ? 'over45' : String(21 + Math.floor(rand() * 25));
        insert.run(
          ids[i],
          owners[Math.floor(rand() * owners.length)],
          types[Math.floor(rand() * types.length)],
          title,
          description,
          age,
          city.state_id,
          city.id,
          phone,
          photoJson[i % photos.length],
          online,
          created,
          firstSeq + i,
          bumpedAt,
          fastIso(published),
          fastIso(now + DAY + Math.floor(rand() * 29 * DAY)),
          created,
          bumpedAt,
          online,
        );
      }
    })();
  }
  lap(`${count} ads`);
  db.prepare(
    `INSERT INTO ads_fts (rowid, title, description, place, tags)
    SELECT -a.bump_seq, a.title, a.description, c.name || ' ' || s.name || ' ' || s.code, 'ty' || replace(a.listing_type, '_', '') || ' st' || a.state_id
    FROM ads a JOIN cities c ON c.id = a.city_id JOIN states s ON s.id = a.state_id WHERE a.visible = 1 AND a.bump_seq >= ?
    ORDER BY a.bump_seq DESC`,
  ).run(firstSeq);
  // One merged segment: queries then open one b-tree per term instead of dozens.
  db.exec("INSERT INTO ads_fts (ads_fts) VALUES ('optimize')");
  lap('full-text index');
  db.prepare(
    `INSERT INTO ads_public_counts (city_id, listing_type, state_id, n)
    SELECT city_id, listing_type, state_id, count(*) FROM ads WHERE visible = 1 AND bump_seq >= ? GROUP BY city_id, listing_type
    ON CONFLICT (city_id, listing_type) DO UPDATE SET n = n + excluded.n`,
  ).run(firstSeq);
  // The cards the lists read (migration 0011), in their clustered order.
  db.prepare(
    `INSERT INTO ads_cards (city_id, listing_type, bump_seq, state_id, expires_at, card)
    SELECT city_id, listing_type, bump_seq, state_id, expires_at, card FROM ads_card_source WHERE visible = 1 AND bump_seq >= ?
    ORDER BY city_id, listing_type, bump_seq`,
  ).run(firstSeq);
  lap('cards');
} finally {
  for (const d of deferred) db.exec(d.sql);
}
// A server running on this file drops everything it cached (as for a change of places).
db.exec("INSERT INTO ads_public_changes (kind) VALUES ('place')");
lap('public indexes');
db.exec('ANALYZE');
// The change log is nearly empty now and grows later: a statistic saying "1 row" would make the
// planner scan it instead of seeking to the rows a server has not read yet.
db.exec("DELETE FROM sqlite_stat1 WHERE tbl = 'ads_public_changes'");
lap('analyze');
db.pragma('journal_mode = WAL');
await database.close();
console.log(`Seeded ${count} ads for ${ownerCount} owners into ${file}.`);
