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
 * What a form answers instead of the generic 413 request.too_large when the user's own choice of
 * files hits one of the plugin's limits (too many files, one file too large): a refusal naming the
 * field, with its limit, which the user can act on. Keyed by the plugin's error code.
 */
export type FileLimitRefusals = Partial<Record<'FST_FILES_LIMIT' | 'FST_REQ_FILE_TOO_LARGE', () => AppError>>;

/**
 * Runs `read`, which consumes request.parts() or request.file(), and turns the parser's own
 * failures into a 400. The parser (busboy) reports a body cut short or a Content-Type without a
 * boundary as plain Errors, which the app's error handler would rightly treat as bugs (500).
 * A files or file-size limit answers the form's own refusal when `refusals` gives one; other
 * errors with a status (ours, and the plugin's other 413 limits) keep it.
 */
export async function readMultipart<T>(read: () => Promise<T>, refusals: FileLimitRefusals = {}): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof AppError) throw e;
    const code = e && typeof e === 'object' ? (e as { code?: unknown }).code : undefined;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_REQ_FILE_TOO_LARGE') {
      const refusal = refusals[code];
      if (refusal) throw refusal();
    }
    if (e && typeof e === 'object' && typeof (e as { statusCode?: unknown }).statusCode === 'number') throw e;
    throw new Invalid('body', 'request.malformed_upload');
  }
}
