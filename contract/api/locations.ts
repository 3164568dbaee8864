import { Type, type Static } from 'typebox';
import { Errors, PageInfo, Paging } from './common.ts';
import type { RouteContract } from './types.ts';

/** A US state (or DC): `id` is the lowercase USPS code ('ny'), `code` the USPS code ('NY'). */
export const StateSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  code: Type.String(),
  slug: Type.String(),
  countryCode: Type.String(),
  enabled: Type.Boolean(),
});
export type State = Static<typeof StateSchema>;

/** A city of a state: `id` is its GeoNames id; lists are sorted largest first. */
export const CitySchema = Type.Object({
  id: Type.String(),
  stateId: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  population: Type.Integer(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  enabled: Type.Boolean(),
});
export type City = Static<typeof CitySchema>;

/**
 * isAll: disabled places too (staff only: 401 for guests, 403 for providers). Only `true` asks for
 * them: an empty value (`?isAll=`, `?isAll`, as PRODUCT §7 writes the URL) is read as false.
 */
const IsAll = Type.Object({ isAll: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('')])) });
/** A state's id ('ny'), USPS code ('NY') or slug ('new-york'). */
const StateKey = Type.String({ minLength: 1, maxLength: 64 });

/** The locations module's routes: "METHOD /path" → the schemas of its request and answers. */
export const locationsApi = {
  /** Public: every enabled state, by name. */
  'GET /api/states-from-country': {
    querystring: IsAll,
    response: { 200: Type.Object({ states: Type.Array(StateSchema) }), ...Errors },
  },
  /** Public: a state's enabled cities, largest first; a disabled or unknown state is a 404. */
  'GET /api/cities-from-state/:stateId': {
    params: Type.Object({ stateId: StateKey }),
    querystring: IsAll,
    response: { 200: Type.Object({ cities: Type.Array(CitySchema) }), ...Errors },
  },
  /** Staff: one page of a state's cities (disabled ones included), optionally filtered by name or slug. */
  'GET /api/admin/get-cities-by-state': {
    querystring: Type.Object({
      stateId: StateKey,
      query: Type.Optional(Type.String({ maxLength: 100 })),
      ...Paging,
    }),
    response: { 200: Type.Object({ cities: Type.Array(CitySchema), ...PageInfo }), ...Errors },
  },
  /** Staff: without cityIds enables or disables the state; with cityIds, those cities of it. */
  'POST /api/admin/set-status-state-cities': {
    body: Type.Object({
      stateId: StateKey,
      cityIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 2000 })),
      enabled: Type.Boolean(),
    }),
    response: { 200: Type.Object({ updated: Type.Integer() }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
