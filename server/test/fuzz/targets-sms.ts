import type { Spec } from './targets.ts';

/** Working requests of the sms module's routes for the fuzzer (see targets.ts). */
export const specs: Record<string, Spec> = {};
