import fs from 'node:fs';
import { Type } from 'typebox';
import { defineRoutes } from '../../core/http.ts';
import { NotFound } from '../../core/errors.ts';
import { Errors } from '../../../contract/api/common.ts';
import { resolveUpload, uploadsRoot } from './uploads.storage.ts';
import { sessionOf, type SessionUser } from '../../core/auth.ts';
import { isStaff } from '../../core/policy.ts';
import { ownerFetchableAd, ownerFetchableUser } from './uploads.withdrawn.ts';
import { noneMatch } from '../../core/encoding.ts';

const TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' };

/**
 * How long any cache may show a public file without asking: staff taking its ad down, a suspension
 * or a hold must reach shared caches (CDN, proxies, image proxies) within minutes, not a year.
 */
const PUBLIC_CACHE = 'public, max-age=300';

/** Whether the file (modified at `mtimeMs`) is no newer than the If-Modified-Since date, which has whole seconds. */
function notModifiedSince(header: string, mtimeMs: number): boolean {
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

/**
 * Public: avatars and approved ad photos are shown to guests. Names are random and never reused, so
 * a file's bytes never change; whether it may still be shown does (any file can be withdrawn, or
 * erased, below). So shared caches keep a file only for PUBLIC_CACHE, then ask again: a cheap 304
 * by its ETag or Last-Modified while it is still public, the 404 once it is not. Only paths shaped like the names we generate are served: no directory
 * listing, no dot segments, nothing outside DATA_DIR/uploads. A withdrawn file (a photo no staff
 * member approved yet, a taken-down ad's, a suspended owner's, one only a legal hold keeps:
 * uploads.withdrawn.ts) is for staff, and an unreviewed or disabled ad's photos for its owner too;
 * anyone else gets 404, and no cache keeps either answer.
 */
export default defineRoutes((app, deps) => {
  fs.mkdirSync(uploadsRoot(deps.config.dataDir), { recursive: true });
  const withdrawnFor = deps.database.reader.prepare<[string], string>('SELECT reason FROM withdrawn_uploads WHERE path = ?').pluck();
  const ownerOfAd = deps.database.reader.prepare<[string], string>('SELECT owner_id FROM ads WHERE id = ?').pluck();
  /**
   * Staff fetch any withdrawn file; an ad's owner, the photos of their ad that staff disabled or
   * have not approved yet, or that wait for their account's approval (nothing else withdraws them:
   * not a suspension, not a hold).
   */
  const mayFetchWithdrawn = (user: SessionUser | null, reasons: string[]) => {
    if (user === null) return false;
    const ownsEvery = reasons.every((r) => {
      if (ownerFetchableUser(r) === user.id) return true;
      const adId = ownerFetchableAd(r);
      return adId !== null && ownerOfAd.get(adId) === user.id;
    });
    return ownsEvery || isStaff(user);
  };

  app.get(
    '/uploads/*',
    {
      schema: {
        params: Type.Object({ '*': Type.String({ maxLength: 300 }) }),
        // Outside /api, so not in the contract; its errors are still `{message, code, params?}`.
        response: { 200: Type.Unknown({ description: 'the file' }), ...Errors },
      },
    },
    async (request, reply) => {
      const rel = request.params['*'];
      const file = resolveUpload(deps.config.dataDir, rel);
      if (!file) throw new NotFound('uploads.file_not_found');
      let cache = PUBLIC_CACHE;
      const reasons = withdrawnFor.all(rel);
      if (reasons.length) {
        reply.header('cache-control', 'no-store');
        if (!mayFetchWithdrawn(await sessionOf(request, deps), reasons)) throw new NotFound('uploads.file_not_found');
        cache = 'private, no-store';
      }
      let stat: fs.Stats;
      try {
        stat = await fs.promises.stat(file);
      } catch {
        throw new NotFound('uploads.file_not_found');
      }
      if (!stat.isFile()) throw new NotFound('uploads.file_not_found');
      // The file's bytes never change under its name: its size and time tell its copies apart all the same.
      const etag = `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`;
      const lastModified = stat.mtime.toUTCString();
      reply.header('cache-control', cache).header('etag', etag).header('last-modified', lastModified);
      // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2); the checks above come first, so a withdrawn file never answers 304.
      const inm = request.headers['if-none-match'];
      const ims = request.headers['if-modified-since'];
      if (inm !== undefined ? noneMatch(inm, etag) : ims !== undefined && notModifiedSince(ims, stat.mtimeMs)) return reply.status(304).send();
      return reply
        .header('content-type', TYPES[rel.slice(rel.lastIndexOf('.') + 1)])
        .header('content-length', stat.size)
        .send(fs.createReadStream(file));
    },
  );
});
