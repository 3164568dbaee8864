import { Errors } from './common.ts';
import type { RouteContract } from './types.ts';

/**
 * The realtime module's routes. GET /api/ws is the one WebSocket: once upgraded (101) it speaks
 * the events of contract/events.ts. Its HTTP answers are only the refusals before the upgrade:
 * 401 (no session), 403 (foreign Origin), 426 (a plain GET), 429 (too many handshakes).
 */
export const realtimeApi = {
  'GET /api/ws': { response: { ...Errors } },
} as const satisfies Record<string, RouteContract>;
