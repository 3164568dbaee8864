import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TypedApp } from './http.ts';
import { AppError, Invalid } from './errors.ts';

/** PRODUCT §10–11: images ≤ 10 MB each, at most 10 per request. */
export const MULTIPART_LIMITS = { fileSize: 10 * 1024 * 1024, files: 10, fields: 30, fieldSize: 64 * 1024, parts: 60 };

/**
 * Registers routes that take multipart bodies inside their own scope. Registered app-wide, the
 * multipart plugin's hooks cost every route (~71k → ~26k req/s on a bare route here); scoped,
 * they cost only the upload routes. Elsewhere a multipart body is refused with 415.
 */
export async function withMultipart(app: TypedApp, routes: (scope: TypedApp) => void | Promise<void>): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS });
    await routes(scope.withTypeProvider<TypeBoxTypeProvider>());
  });
}

/**
 * Runs `read`, which consumes request.parts() or request.file(), and turns the parser's own
 * failures into a 400. The parser (busboy) reports a body cut short or a Content-Type without a
 * boundary as plain Errors, which the app's error handler would rightly treat as bugs (500).
 * Errors with a status (ours, and the plugin's 413 limits) keep it.
 */
export async function readMultipart<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (e && typeof e === 'object' && typeof (e as { statusCode?: unknown }).statusCode === 'number') throw e;
    throw new Invalid('body', 'request.malformed_upload');
  }
}
