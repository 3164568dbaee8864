import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('what the server loads at start', () => {
  it('leaves sharp and nodemailer until the first picture or message (~18 MB of memory a server may never need)', () => {
    // The whole application's module graph, as main.ts imports it, in a plain Node process (the
    // tests' own loader is not Node's), every module it resolves, ESM or CommonJS, noted on the way.
    const script = `
      import { registerHooks } from 'node:module';
      const loaded = new Set();
      registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.add(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(r.url)?.[1]); return r; } });
      await import(${JSON.stringify(path.join(ROOT, 'server/app.ts'))});
      console.log(JSON.stringify([...loaded].filter(Boolean).sort()));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    const packages = JSON.parse(out.trim().split('\n').pop()!) as string[];
    expect(packages).toContain('fastify'); // the check sees CommonJS packages…
    expect(packages).toContain('kysely'); // …and ES modules
    expect(packages).toContain('better-sqlite3');
    expect(packages).not.toContain('sharp');
    expect(packages).not.toContain('nodemailer');
  });
});
