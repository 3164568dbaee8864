import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../core/migrate.ts';

// README.md's "Folder map" says "Each table has one owning module" and gives the module → tables
// map a developer uses to find who writes a table. These tests hold that map against the schema
// the migrations actually build.

const ROOT = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The backticked table names in README's `| module | owns |` table. */
function mapTables(): Set<string> {
  const start = readme.indexOf('| module | owns |');
  const rows = readme.slice(start).split('\n\n')[0];
  return new Set([...rows.matchAll(/`([a-z_]+)(?:\.[a-z_]+)?`/g)].map((m) => m[1]));
}

/** The tables a fresh database has after every migration (FTS5 shadow tables and bookkeeping left out). */
function schemaTables(): string[] {
  const db = new Database(':memory:');
  try {
    migrate(db);
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[])
      .map((r) => r.name)
      .filter((n) => !n.startsWith('sqlite_') && !n.startsWith('ads_fts_') && n !== 'schema_migrations');
  } finally {
    db.close();
  }
}

describe('README module map against the migrated schema', () => {
  // Every table the migrations create is named by the map, so a developer (or an operator
  // restoring or purging by hand) knows which module owns it (nine were missing once).
  it('names every table the migrations create', () => {
    const named = mapTables();
    expect(schemaTables().filter((t) => !named.has(t))).toEqual([]);
  });

  // The map names only tables that exist (it once gave listings `ads_public_version`, dropped by 0017).
  it('names no table the migrations dropped', () => {
    const live = new Set(schemaTables());
    // The map also backticks a few column names (`locale`, a code's `uses`): those are not tables.
    const columns = new Set(['locale', 'uses']);
    expect([...mapTables()].filter((t) => !live.has(t) && !columns.has(t))).toEqual([]);
  });
});

describe('README ownership rule against the repositories', () => {
  // The cron row names every table the cron repository writes (its purges of other modules' tables
  // were once missing from it).
  it('the cron module writes only the tables README gives it', () => {
    const source = fs.readFileSync(path.join(ROOT, 'server/modules/cron/cron.repository.ts'), 'utf8');
    const written = new Set([...source.matchAll(/\.(?:insertInto|updateTable|deleteFrom)\('([a-z_]+)'\)/g)].map((m) => m[1]));
    const row = readme.split('\n').find((l) => l.startsWith('| cron |')) ?? '';
    const granted = new Set([...row.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    expect([...written].filter((t) => !granted.has(t)).sort()).toEqual([]);
  });
});
