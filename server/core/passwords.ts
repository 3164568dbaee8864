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
