import fs from 'node:fs';
import Database from 'better-sqlite3';
const db = new Database('/tmp/ftsx.sqlite', { readonly: true });
const spec = JSON.parse(fs.readFileSync('/tmp/spec-1011.json'));
const paths = spec.kinds.find((k) => k.name === 'search').paths.slice(0, 3000);
const states = new Map(db.prepare('SELECT slug, id FROM states').all().map((r) => [r.slug, r.id]));
const exprs = paths.map((p) => {
  const u = new URL(p, 'http://x');
  const words = (u.searchParams.get('query').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
  let e = `{title description place} : (${words.map((w) => `"${w}"`).join(' ')})`;
  const st = u.searchParams.get('state');
  if (st) e += ` AND tags : "st${states.get(st).replace(/[^a-z0-9]/gi, '')}"`;
  return e;
});
for (const table of ['ads_fts', 'ads_fts2', 'ads_fts', 'ads_fts2']) {
  const q = db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT 200`).pluck();
  const t = performance.now();
  let n = 0;
  for (const e of exprs) n += q.all(e).length;
  console.log(table, ((performance.now() - t) * 1000 / exprs.length).toFixed(0), 'µs/query', n);
}
