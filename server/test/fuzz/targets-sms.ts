import { Fresh } from './inputs.ts';
import type { Spec } from './targets.ts';

// Working requests of the sms module's routes for the fuzzer (see targets.ts). The fuzzer's app has
// no Textbelt on this machine: a key it sets leaves the gateway unconfigured (sms.service.ts
// gatewayUrl), so messages go to the outbox and nothing leaves the process.
//
// POST /api/phone-verification/confirm has no seed on purpose: a wrong code for a live code counts a
// try (a write, by design), which the fuzzer would report as a refused request that changed
// something. Without a seed its inputs meet no live code (every run starts an hour later, past any
// code's 10 minutes) and are refused without writing; sms.verification.test.ts covers the tries.

let phones = 0;
const freshPhone = () => new Fresh(() => `+1718555${String(1000 + (phones++ % 9000)).padStart(4, '0')}`);

export const specs: Record<string, Spec> = {
  'PUT /api/admin/update-textbelt-token-by-id/:id': { seed: async () => ({ params: { id: '1' }, body: { token: 'fuzz_key_1234' } }) },
  'GET /api/admin/get-textbelt-balance/:id': { seed: async () => ({ params: { id: '1' } }) },
  'POST /api/admin/send-textbelt-test-sms': { seed: async () => ({ body: { phone: '+12125550100', message: 'Sent by the input fuzzer.' } }) },
  'POST /api/phone-verification': { seed: async () => ({ body: { phone: freshPhone() } }) },
};
