import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../core/db.ts';
import { migrate } from '../core/migrate.ts';
import { seedLocations } from '../modules/locations/locations.seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated and seeded SQLite file that every test database is copied from (harness.ts). */
    templateDbFile: string;
  }
}

/**
 * Vitest global setup of the server project: migrates and seeds the template database once per
 * run, instead of once per test file (each file runs in its own process and would pay ~0.3 s of
 * CPU for it), and hands its path to the test processes.
 */
export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-template-'));
  const file = path.join(dir, 'template.sqlite');
  const t = openDatabase(':memory:');
  try {
    migrate(t.sqlite);
    seedLocations(t.sqlite);
    fs.writeFileSync(file, t.sqlite.serialize());
  } finally {
    t.sqlite.close();
  }
  project.provide('templateDbFile', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
