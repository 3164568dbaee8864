import fs from 'node:fs';
import { Type } from 'typebox';
import { defineRoutes } from '../../core/http.ts';
import { NotFound } from '../../core/errors.ts';
import { Errors } from '../../../contract/api/common.ts';
import { resolveUpload, uploadsRoot } from './uploads.storage.ts';
import { sessionOf, type SessionUser } from '../../core/auth.ts';
import { isStaff } from '../../core/policy.ts';
import { ownerFetchableAd } from './uploads.withdrawn.ts';

const TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' };

/**
 * Public: avatars and approved ad photos are shown to guests. Names are random and never reused, so
 * a file can be cached forever. Only paths shaped like the names we generate are served: no directory
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
   * have not approved yet (nothing else withdraws them: not a suspension, not a hold).
   */
  const mayFetchWithdrawn = (user: SessionUser | null, reasons: string[]) => {
    if (user === null) return false;
    const ownsEvery = reasons.every((r) => {
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
      let cache = 'public, max-age=31536000, immutable';
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
      return reply
        .header('content-type', TYPES[rel.slice(rel.lastIndexOf('.') + 1)])
        .header('content-length', stat.size)
        .header('cache-control', cache)
        .header('last-modified', stat.mtime.toUTCString())
        .send(fs.createReadStream(file));
    },
  );
});
