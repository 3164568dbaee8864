import { defineRoutes } from '../../core/http.ts';

export default defineRoutes((_app, _deps) => {});
