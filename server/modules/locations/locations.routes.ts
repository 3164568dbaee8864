import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { locationsApi } from '../../../contract/api/locations.ts';

export default defineRoutes((app, deps) => {
  const locations = deps.services.locations;

  app.get('/api/states-from-country', { schema: locationsApi['GET /api/states-from-country'] }, async (request) => ({
    states: await locations.listStates(request.user, request.query.isAll === true),
  }));

  app.get('/api/cities-from-state/:stateId', { schema: locationsApi['GET /api/cities-from-state/:stateId'] }, async (request) => ({
    cities: await locations.listCities(request.user, request.params.stateId, request.query.isAll === true),
  }));

  app.get('/api/admin/get-cities-by-state', { schema: locationsApi['GET /api/admin/get-cities-by-state'] }, async (request) =>
    locations.pageCities(request.query),
  );

  app.post('/api/admin/set-status-state-cities', { schema: locationsApi['POST /api/admin/set-status-state-cities'] }, async (request) => {
    const { stateId, cityIds, enabled } = request.body;
    return locations.setStatus(requireUser(request), { stateId, cityIds, enabled });
  });
});
