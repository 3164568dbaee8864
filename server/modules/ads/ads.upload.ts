import type { FastifyRequest } from 'fastify';
import { PHOTOS_TOTAL_MAX_MB } from '../../../contract/rules.ts';
import { Invalid, TooLarge } from '../../core/errors.ts';
import { MULTIPART_LIMITS, readMultipart, textField, type FileLimitRefusals } from '../../core/multipart.ts';
import { EDIT_AD_FIELDS, POST_AD_FIELDS } from '../../../contract/api/ads.ts';
import { MAX_PHOTOS, type AdFieldsInput } from './ads.rules.ts';

/** PRODUCT §11: uploads are 60 MB in total (10 MB per photo is enforced by the multipart plugin). */
export const MAX_UPLOAD_BYTES = PHOTOS_TOTAL_MAX_MB * 1024 * 1024;

/**
 * PRODUCT §7/§10: the plugin's files and file-size limits are the form's photo rules, so a user
 * past them gets the refusal naming photos (as the service's own count check words it), not the
 * generic "request too large": 400 for too many, 413 for a photo too large (as the avatar's).
 * Nothing has been stored when they are hit.
 */
const PHOTO_LIMITS: FileLimitRefusals = {
  FST_FILES_LIMIT: () => new Invalid('photos', 'ad.photos_count', { min: 1, max: MAX_PHOTOS }),
  FST_REQ_FILE_TOO_LARGE: () => new TooLarge('ad.photo_too_large', { field: 'photos', mb: MULTIPART_LIMITS.fileSize / (1024 * 1024) }),
};

/** A photo as sent: its bytes, and its file name as the multipart part gave it, cleaned (sentFileName), for the refusals to name it. */
export type PhotoUpload = Buffer & { readonly fileName?: string };

/** How long a file name the refusals quote may be, in characters. */
const SENT_NAME_MAX = 80;

/**
 * A file's name as its sender's device gave it, safe to quote in a message: the base name only (no
 * folders), without control, format or bidi characters (a U+202E before "gpj.exe" shows it
 * as "exe.jpg"), spaces collapsed, and cut to SENT_NAME_MAX characters ('…' at the cut).
 * '' when nothing is left.
 */
export function sentFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).at(-1) ?? '';
  const clean = base
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(clean);
  return chars.length > SENT_NAME_MAX ? `${chars.slice(0, SENT_NAME_MAX - 1).join('')}…` : clean;
}

/** The edit form's fields: post-ad's and keepPhotos. */
export const EDIT_FIELDS: readonly string[] = EDIT_AD_FIELDS;

/**
 * Reads the post-ad form (or the edit form, with `known` = EDIT_FIELDS): the known text fields and every file under `photos`. Unknown parts are
 * drained and ignored. A known field cut at the field size limit, sent as JSON, or not UTF-8 is
 * refused naming it (textField), never stored cut short, dropped, or with U+FFFD in its letters. The multipart body cannot be described by a JSON schema, so the fields
 * are checked by the service (checkAdFields), with the same field-named 400s. A body cut short
 * or without a boundary is a 400 (readMultipart), and so are more than 10 photos; one past 10 MB
 * is a 413 (PHOTO_LIMITS); nothing has been stored at that point.
 */
export function readAdForm(
  request: FastifyRequest,
  known: readonly string[] = POST_AD_FIELDS,
): Promise<{ fields: AdFieldsInput & { keepPhotos?: string }; photos: PhotoUpload[] }> {
  return readMultipart(async () => {
    const fields: Record<string, string> = {};
    const photos: PhotoUpload[] = [];
    let total = 0;
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'photos' && part.fieldname !== 'photos[]') {
          part.file.resume();
          continue;
        }
        const buf = await part.toBuffer();
        total += buf.length;
        if (total > MAX_UPLOAD_BYTES) throw new TooLarge('ad.photos_too_large', { mb: MAX_UPLOAD_BYTES / (1024 * 1024) });
        photos.push(Object.assign(buf, { fileName: sentFileName(part.filename) }));
      } else if (known.includes(part.fieldname)) {
        fields[part.fieldname] = textField(part);
      }
    }
    return { fields, photos };
  }, PHOTO_LIMITS);
}
