import { Invalid } from './errors.ts';

/**
 * Why the first start could not make the master account from MASTER_EMAIL and MASTER_PASSWORD, in
 * the words of a configuration error (naming the setting), or null for any other failure. The
 * settings pass loadConfig's checks of any address (config.ts); a new account's rules are stricter
 * (no xn-- domain label, no stray dots: checkNewEmail), and load does not refuse them, since an
 * install whose master exists never asks (AuthService.ensureMaster).
 */
export function firstMasterProblem(err: unknown): string | null {
  if (!(err instanceof Invalid)) return null;
  const setting = err.field === 'email' ? 'MASTER_EMAIL' : err.field === 'password' ? 'MASTER_PASSWORD' : null;
  return setting && `Invalid configuration:\n - ${setting}: ${err.message.replace(/\.$/, '')} (the first master account could not be created)`;
}
