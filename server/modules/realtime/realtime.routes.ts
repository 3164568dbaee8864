import { defineRoutes } from '../../core/http.ts';

// Placeholder: this module's routes are not built yet.
export default defineRoutes(() => {});
