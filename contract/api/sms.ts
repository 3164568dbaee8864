import type { RouteContract } from './types.ts';

/** The sms module's routes: "METHOD /path" → the schemas of its request and answers. */
export const smsApi = {} as const satisfies Record<string, RouteContract>;
