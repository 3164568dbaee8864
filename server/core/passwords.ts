import argon2 from 'argon2';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** argon2id. Tests pass cheaper cost settings; the hash records its own parameters, so verify works across. */
export function createPasswordHasher(opts: { memoryCost?: number; timeCost?: number } = {}): PasswordHasher {
  const memoryCost = opts.memoryCost ?? 19456; // OWASP's argon2id minimum: 19 MiB, t=2, p=1
  const timeCost = opts.timeCost ?? 2;
  return {
    hash: (password) => argon2.hash(password, { type: argon2.argon2id, memoryCost, timeCost, parallelism: 1 }),
    async verify(hash, password) {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
  };
}

/**
 * The password as it is checked and hashed: NFC. The same password reaches us precomposed from one
 * keyboard and decomposed from another ("é" as U+00E9, or "e" + U+0301), as e-mail addresses do
 * (contract/rules.ts normalizeEmail); NIST SP 800-63B §5.1.1.2 asks that passwords be normalized.
 */
export const normalizePassword = (typed: string): string => typed.normalize('NFC');

/** The hash stored for a password as typed: of its NFC form. */
export const hashPassword = (hasher: PasswordHasher, typed: string): Promise<string> => hasher.hash(normalizePassword(typed));

/**
 * Whether `typed` is the password `hash` was made of. A hash made before passwords were normalized
 * is of the text as it was typed then: when the NFC form does not match and differs from what was
 * typed, the text as typed is tried too, and on a match `rehash` is the hash of the NFC form, for
 * the caller to store (with rehashPassword, in its own transaction) so the next sign-in matches from
 * any keyboard. Null when nothing is to be stored.
 */
export async function verifyPassword(hasher: PasswordHasher, hash: string, typed: string): Promise<{ ok: boolean; rehash: string | null }> {
  const nfc = normalizePassword(typed);
  if (await hasher.verify(hash, nfc)) return { ok: true, rehash: null };
  if (nfc === typed || !(await hasher.verify(hash, typed))) return { ok: false, rehash: null };
  return { ok: true, rehash: await hasher.hash(nfc) };
}
