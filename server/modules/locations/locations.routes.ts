import { Type } from 'typebox';
import { Paging, defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { LocationsService } from './locations.service.ts';

const Message = Type.Object({ message: Type.String() });
const State = Type.Object({
  id: Type.String(),
  name: Type.String(),
  code: Type.String(),
  slug: Type.String(),
  countryCode: Type.String(),
  enabled: Type.Boolean(),
});
const City = Type.Object({
  id: Type.String(),
  stateId: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  population: Type.Integer(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  enabled: Type.Boolean(),
});
const IsAll = Type.Object({ isAll: Type.Optional(Type.Boolean()) });
/** A state's id ('ny'), USPS code ('NY') or slug ('new-york'). */
const StateKey = Type.String({ minLength: 1, maxLength: 64 });

export default defineRoutes((app, deps) => {
  const locations = new LocationsService(deps);

  app.get('/api/states-from-country', {
    schema: { querystring: IsAll, response: { 200: Type.Object({ states: Type.Array(State) }), '4xx': Message } },
  }, async (request) => ({ states: await locations.listStates(request.user, request.query.isAll === true) }));

  app.get('/api/cities-from-state/:stateId', {
    schema: {
      params: Type.Object({ stateId: StateKey }),
      querystring: IsAll,
      response: { 200: Type.Object({ cities: Type.Array(City) }), '4xx': Message },
    },
  }, async (request) => ({ cities: await locations.listCities(request.user, request.params.stateId, request.query.isAll === true) }));

  app.get('/api/admin/get-cities-by-state', {
    schema: {
      querystring: Type.Object({
        stateId: StateKey,
        query: Type.Optional(Type.String({ maxLength: 100 })),
        ...Paging,
      }),
      response: {
        200: Type.Object({ cities: Type.Array(City), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() }),
        '4xx': Message,
      },
    },
  }, async (request) => locations.pageCities(request.query));

  app.post('/api/admin/set-status-state-cities', {
    schema: {
      body: Type.Object({
        stateId: StateKey,
        cityIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { minItems: 1, maxItems: 2000 })),
        enabled: Type.Boolean(),
      }),
      response: { 200: Type.Object({ updated: Type.Integer() }), '4xx': Message },
    },
  }, async (request) => {
    const { stateId, cityIds, enabled } = request.body;
    return locations.setStatus(requireUser(request), { stateId, cityIds, enabled });
  });
});
