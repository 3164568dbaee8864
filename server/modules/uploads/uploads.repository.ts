import type { Executor } from '../../core/db.ts';

/** Every string anywhere in a photos record, whatever shape it takes, without a /uploads/ prefix. */
function pathsIn(photosJson: string, adId: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v.replace(/^\/uploads\//, ''));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  try {
    walk(JSON.parse(photosJson));
  } catch {
    // The sweep must then remove nothing rather than a file it could not rule out.
    throw new Error(`The photos of ad ${adId} cannot be read; no upload was removed.`);
  }
  return out;
}

/**
 * The upload paths named by the ads that follow `afterId` in id order, `limit` ads at a time
 * (so a sweep over a million ads never holds the event loop for long); `lastId` is null at the end.
 */
export async function adPhotoPathsAfter(db: Executor, afterId: string, limit: number): Promise<{ paths: string[]; lastId: string | null }> {
  const rows = await db.selectFrom('ads').select(['id', 'photos_json']).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  return { paths: rows.flatMap((r) => pathsIn(r.photos_json, r.id)), lastId: rows.length === limit ? rows[rows.length - 1].id : null };
}

export async function avatarPaths(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('users').select('avatar').where('avatar', 'is not', null).execute();
  return rows.map((r) => r.avatar!.replace(/^\/uploads\//, ''));
}

/**
 * The upload paths of the edits waiting for review: until staff decide, only the revision names its
 * new photos. An edit left behind by its deleted ad keeps nothing (a legal hold keeps its own copies).
 */
export async function pendingRevisionPhotoPaths(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('ad_revisions as r')
    .select(['r.ad_id', 'r.photos_json'])
    .where('r.status', '=', 'pending')
    .where((eb) => eb.exists(eb.selectFrom('ads').select('ads.id').whereRef('ads.id', '=', 'r.ad_id')))
    .execute();
  return rows.flatMap((r) => pathsIn(r.photos_json, r.ad_id));
}
