import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../server/core/db.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-seed-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const seed = (...args: string[]) =>
  execFileSync(process.execPath, ['scripts/seed-ads.ts', '--data-dir', dir, ...args], { cwd: path.resolve(import.meta.dirname, '..'), encoding: 'utf8' });

describe('seed-ads', () => {
  it('adds live ads with consistent indexes, counters and photos, and appends on a second run', () => {
    expect(seed('--count', '400', '--owners', '5')).toMatch(/Seeded 400 ads for 5 owners/);
    expect(seed('--count', '100', '--owners', '2', '--seed', '2')).toMatch(/Seeded 100 ads/);
    const { sqlite } = openDatabase(path.join(dir, 'xg.sqlite'));
    try {
      const one = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
      expect(one('SELECT count(*) AS n FROM ads')).toBe(500);
      expect(one("SELECT count(*) AS n FROM ads WHERE status <> 'approved' OR bump_seq IS NULL")).toBe(0);
      expect(one('SELECT count(DISTINCT bump_seq) AS n FROM ads')).toBe(500);
      const visible = one('SELECT count(*) AS n FROM ads WHERE visible = 1');
      expect(visible).toBeGreaterThan(400);
      expect(one('SELECT count(*) AS n FROM ads_fts')).toBe(visible);
      expect(one('SELECT sum(n) AS n FROM ads_public_counts')).toBe(visible);
      expect(one('SELECT count(*) AS n FROM ads_cards')).toBe(visible);
      // the bulk load left the change log alone (one "drop everything" row per run)
      expect(one("SELECT count(*) AS n FROM ads_public_changes WHERE kind = 'ad'")).toBe(0);
      expect(one("SELECT count(*) AS n FROM ads WHERE visible = 1 AND (online = 0 OR expires_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))")).toBe(0);
      // every public index is back
      const indexes = (
        sqlite.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name IN ('ads', 'ads_cards') AND sql IS NOT NULL").all() as {
          name: string;
        }[]
      ).map((r) => r.name);
      expect(indexes).toEqual(
        expect.arrayContaining([
          'ads_public_expiry',
          'ads_owner',
          'ads_fts_insert',
          'ads_fts_update',
          'ads_cards_insert',
          'ads_cards_update',
          'ads_cards_seq',
          'ads_cards_state',
        ]),
      );
      // most ads sit in big cities: New York City outnumbers a small town
      const nyc = one("SELECT count(*) AS n FROM ads a JOIN cities c ON c.id = a.city_id WHERE c.slug = 'new-york-city'");
      expect(nyc).toBeGreaterThan(5);
      const photo = JSON.parse((sqlite.prepare('SELECT photos_json FROM ads LIMIT 1').get() as { photos_json: string }).photos_json)[0];
      expect(fs.existsSync(path.join(dir, 'uploads', photo.path))).toBe(true);
      expect(one("SELECT count(*) AS n FROM users WHERE status = 'approved'")).toBe(7);
    } finally {
      sqlite.close();
    }
  });

  it('refuses a bad count', () => {
    expect(() => seed('--count', 'lots')).toThrow();
  });
});
