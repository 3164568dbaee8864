import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';
import { firstMasterProblem } from './first-master.ts';

// MASTER_EMAIL passes the load's check of an address; a new account's rules are stricter (an xn--
// domain label, a trailing dot). The first start then says so naming the setting, as a config
// error does (main.ts prints it and exits), instead of a 400's stack trace.
describe('the first master from MASTER_EMAIL', () => {
  it('names MASTER_EMAIL when a new account could not have that address', async () => {
    for (const address of ['ops@xn--bcher-kva.de', 'ops@example.com.', 'ops.@example.com']) {
      const ctx = await createTestApp({ env: { MASTER_EMAIL: address, MASTER_PASSWORD: 'a long master password' } });
      try {
        const problem = await ctx.app.deps.services.auth.ensureMaster().then(() => 'created', firstMasterProblem);
        expect(problem, address).toMatch(/^Invalid configuration:\n - MASTER_EMAIL: .+ \(the first master account could not be created\)$/);
      } finally {
        await ctx.close();
      }
    }
  });

  it('is no configuration problem for any other failure', () => {
    expect(firstMasterProblem(new Error('disk full'))).toBeNull();
  });
});
