import { defineRoutes } from '../../core/http.ts';

// Placeholder: serving of uploaded images (/uploads/...) is not built yet.
export default defineRoutes(() => {});
