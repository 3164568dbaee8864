import fs from 'node:fs';
import Database from 'better-sqlite3';
const spec = JSON.parse(fs.readFileSync('/tmp/spec-1011.json'));
const paths = spec.kinds.find((k) => k.name === 'city listing').paths;
for (const [mmap, cache] of [[0, 16384], [0, 16384], [268435456, 16384], [0, 65536]]) {
  const db = new Database('/tmp/b1m/xg.sqlite', { readonly: true });
  db.pragma(`mmap_size = ${mmap}`); db.pragma(`cache_size = -${cache}`);
  const cities = new Map(db.prepare('SELECT c.slug cs, s.slug ss, c.id FROM cities c JOIN states s ON s.id = c.state_id').all().map((r) => [`${r.ss}/${r.cs}`, r.id]));
  const types = { 'female-escorts': 'female_esc', 'female-bodyrubs': 'female_rub', 'shemale-escorts': 'shemale_esc' };
  const q = db.prepare(`SELECT coalesce(group_concat(card, ','), '') AS json, count(*) AS n FROM (SELECT card FROM ads_cards WHERE city_id = ? AND listing_type = ? AND expires_at > ? ORDER BY bump_seq DESC LIMIT ? OFFSET ?)`);
  const now = new Date().toISOString();
  const args = paths.slice(0, 20000).map((p) => { const u = new URL(p, 'http://x'); const page = Number(u.searchParams.get('page') || 1); return [cities.get(`${u.searchParams.get('state')}/${u.searchParams.get('city')}`), types[u.searchParams.get('type')] ?? u.searchParams.get('type'), now, 20, (page - 1) * 20]; });
  if (!args[0][0]) { console.log(paths[0]); process.exit(1); }
  let t = performance.now(); let n = 0;
  for (const a of args) n += q.get(...a).n;
  console.log({ mmap, cache }, ((performance.now() - t) * 1000 / args.length).toFixed(1), 'µs/query first pass', n);
  t = performance.now();
  for (const a of args) q.get(...a);
  console.log({ mmap, cache }, ((performance.now() - t) * 1000 / args.length).toFixed(1), 'µs/query second pass');
  db.close();
}
