import type { RouteContract } from './types.ts';

/** The health module's routes: "METHOD /path" → the schemas of its request and answers. */
export const healthApi = {} as const satisfies Record<string, RouteContract>;
