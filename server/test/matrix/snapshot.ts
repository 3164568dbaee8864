import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from '../harness.ts';

// "Nothing changed": what the matrix compares around every refused request.

export type Snapshot = Map<string, string>;

const tablesOf = new WeakMap<TestContext, string[]>();

/**
 * Everything a refused request could have changed: every table, row by row (the 16,000 seeded
 * cities by a digest of their columns; the full-text index follows the ads table), the mail sent
 * and the files stored.
 */
export function snapshot(ctx: TestContext): Snapshot {
  const sqlite = ctx.app.deps.database.sqlite;
  let tables = tablesOf.get(ctx);
  if (!tables) {
    tables = sqlite
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'ads_fts%'`)
      .pluck()
      .all() as string[];
    tablesOf.set(ctx, tables);
  }
  const snap: Snapshot = new Map();
  for (const t of tables) {
    const rows =
      t === 'cities'
        ? sqlite
            .prepare(
              `SELECT count(*) AS n, group_concat(id) FILTER (WHERE enabled = 0) AS disabled, sum(population) AS population,
          sum(latitude) AS latitude, sum(longitude) AS longitude, sum(length(name) + length(slug) + length(state_id)) AS text FROM cities`,
            )
            .all()
        : sqlite.prepare(`SELECT * FROM "${t}"`).all();
    snap.set(`table ${t}`, JSON.stringify(rows.map((r) => JSON.stringify(r)).sort()));
  }
  snap.set('mail sent', String(ctx.mailer.sent.length));
  const uploads = path.join(ctx.dataDir, 'uploads');
  snap.set('files under uploads/', fs.existsSync(uploads) ? fs.readdirSync(uploads, { recursive: true }).map(String).sort().join('\n') : '');
  return snap;
}

/** What differs between two snapshots, one line each, naming a row that went or came. */
export function diff(before: Snapshot, after: Snapshot): string[] {
  const changed: string[] = [];
  for (const [k, v] of before) {
    if (after.get(k) === v) continue;
    if (!k.startsWith('table ')) {
      changed.push(`${k} changed`);
      continue;
    }
    const was = new Set(JSON.parse(v) as string[]);
    const now = new Set(JSON.parse(after.get(k) ?? '[]') as string[]);
    const gone = [...was].filter((r) => !now.has(r));
    const came = [...now].filter((r) => !was.has(r));
    changed.push(`${k}:${gone.length ? ` was ${gone[0].slice(0, 240)}` : ''}${came.length ? ` now ${came[0].slice(0, 240)}` : ''}`);
  }
  return changed;
}
