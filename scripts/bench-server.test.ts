import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, serverEnv, startCommand } from './bench-server.ts';

describe('the benchmark runs the server as npm start does', () => {
  it("reads the start script's environment and node flags, which rebuild the command it runs", () => {
    const start = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const { env, nodeArgs } = startCommand();
    for (const [k, v] of Object.entries(env)) expect(`${k}=${v}`).toMatch(/^[A-Z_]+=\S+$/);
    for (const a of nodeArgs) expect(a).toMatch(/^--/);
    const rebuilt = [...Object.entries(env).map(([k, v]) => `${k}=${v}`), 'node', ...nodeArgs, 'server/main.ts'].join(' ');
    expect(start).toContain(rebuilt);
    // the benchmark's server gets the same environment, with its own data dir and port
    expect(serverEnv('/tmp/x', 1234)).toMatchObject({ ...env, DATA_DIR: '/tmp/x', PORT: '1234', HOST: '127.0.0.1' });
  });
});
