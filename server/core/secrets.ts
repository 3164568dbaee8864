import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Secrets an install needs but the operator did not set: made at first start from the system's
 * random source and kept in DATA_DIR/secrets.json (mode 0600), so they survive restarts and go
 * with the data (the backup command copies the file beside each backup). Nothing in the source
 * signs or verifies with a value anyone can read: a fresh install's sessions cannot be forged.
 */
export const GENERATED_KEYS_FILE = 'secrets.json';

export interface GeneratedSecrets {
  jwtSecret: string;
  webhookSecret: string;
}

export interface SecretsResult {
  secrets: GeneratedSecrets;
  file: string;
  /** True on the start that made the file (main.ts logs where it lives, once). */
  created: boolean;
}

const KEYS: (keyof GeneratedSecrets)[] = ['jwtSecret', 'webhookSecret'];
const fresh = () => randomBytes(32).toString('base64url');

export function loadOrCreateSecrets(dataDir: string): SecretsResult {
  const file = path.join(dataDir, GENERATED_KEYS_FILE);
  let stored: Partial<GeneratedSecrets> = {};
  let existed = false;
  try {
    stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<GeneratedSecrets>;
    existed = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file} is not readable JSON: ${(e as Error).message}`, { cause: e });
  }
  const missing = KEYS.filter((k) => typeof stored[k] !== 'string' || stored[k]!.length < 32);
  if (missing.length === 0) return { secrets: stored as GeneratedSecrets, file, created: false };
  const secrets = { ...stored } as GeneratedSecrets;
  for (const k of missing) secrets[k] = fresh();
  fs.mkdirSync(dataDir, { recursive: true });
  // Written beside, then put in place whole: a crash never leaves a half-written file, and the
  // mode is set before any secret is in it.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  let placed = true;
  try {
    if (existed)
      fs.renameSync(tmp, file); // completing a file the operator trimmed
    else placed = placeFirst(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  if (!placed) return loadOrCreateSecrets(dataDir); // another process made it first: its secrets are the install's
  return { secrets, file, created: !existed };
}

/**
 * Puts a new secrets file in place unless one is there already, and says whether it did. Two
 * servers starting together on one DATA_DIR both find no file: a rename would let the second
 * replace the first's secrets after the first began signing with them (its sessions then fail on
 * the other process, and after its restart). link() fails with EEXIST instead, and the loser reads
 * the winner's file. Where the filesystem has no hard links, the rename is kept.
 */
function placeFirst(tmp: string, file: string): boolean {
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    fs.renameSync(tmp, file);
    return true;
  }
}
