import fs from 'node:fs';
import { Type } from 'typebox';
import { defineRoutes } from '../../core/http.ts';
import { NotFound } from '../../core/errors.ts';
import { Errors } from '../../../contract/api/common.ts';
import { resolveUpload, uploadsRoot } from './uploads.storage.ts';

const TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' };

/**
 * Public: avatars and ad photos are shown to guests. Names are random and never reused, so a file
 * can be cached forever. Only paths shaped like the names we generate are served: no directory
 * listing, no dot segments, nothing outside DATA_DIR/uploads.
 */
export default defineRoutes((app, deps) => {
  fs.mkdirSync(uploadsRoot(deps.config.dataDir), { recursive: true });

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
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('last-modified', stat.mtime.toUTCString())
        .send(fs.createReadStream(file));
    },
  );
});
