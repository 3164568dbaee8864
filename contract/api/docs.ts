import { Type } from 'typebox';
import { Errors } from './common.ts';
import type { RouteContract } from './types.ts';

/** The API's own description, for integrators and second clients (staff only). */
export const docsApi = {
  'GET /api/docs': {
    response: { 200: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description: 'An OpenAPI 3.1 document' }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
