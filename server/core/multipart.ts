import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TypedApp } from './http.ts';
import { AppError, Invalid, TooLarge, ruleWords } from './errors.ts';

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

/** What the multipart plugin hands over for a text part: its value is parsed JSON when the part declared `application/json`. */
export interface TextPart {
  fieldname: string;
  value: unknown;
  valueTruncated: boolean;
}

/**
 * The text of a form field, or the refusal naming it. Each of these was once stored or dropped
 * without a word:
 * - past MULTIPART_LIMITS.fieldSize the parser cuts the value short and only flags it: 413
 *   request.too_large naming the field (an ad stored with the end of its description missing);
 * - a part the client marked `Content-Type: application/json` arrives parsed (an object, a list):
 *   400 naming the field, "must be text" (an edit without its keepPhotos dropped every photo);
 * - bytes that are not UTF-8 in a part that declared no charset (or UTF-8) are decoded as U+FFFD:
 *   400 naming the field. A part that declared another charset is decoded as declared. U+FFFD is
 *   only ever the mark of text already mangled, so one typed as such is refused too; so is half of
 *   a UTF-16 pair (a JSON string's "\ud83d", a UTF-16 part), which would be stored as U+FFFD.
 */
export function textField(part: TextPart): string {
  if (part.valueTruncated) throw new TooLarge('request.too_large', { field: part.fieldname });
  if (typeof part.value !== 'string') throw invalidText(part.fieldname, 'type_string');
  if (part.value.includes('\uFFFD') || LONE_SURROGATE.test(part.value)) throw invalidText(part.fieldname, 'format');
  return part.value;
}

/** Half of a UTF-16 pair: in a well-formed string a pair is read as one code point, never matched here. */
const LONE_SURROGATE = /\p{Cs}/u;

const invalidText = (field: string, rule: 'type_string' | 'format') => new Invalid(field, 'validation.invalid', { reason: ruleWords({ rule }), rule });
