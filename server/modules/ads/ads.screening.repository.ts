import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';

// The screening log: the ad texts that screening refused (ads.screening.ts), and staff's list of them.

/** The text cut to `n` UTF-16 units, never between the halves of an emoji (a lone half is stored as U+FFFD). */
const cutText = (text: string, n: number) => (/[\ud800-\udbff]/.test(text.charAt(n - 1)) ? text.slice(0, n - 1) : text.slice(0, n));

export async function logScreening(
  db: Executor,
  s: { userId: string; adId: string | null; field: 'title' | 'description'; term: string; title: string; description: string; ip: string | null; at: string },
): Promise<void> {
  await db
    .insertInto('screening_log')
    .values({
      user_id: s.userId,
      ad_id: s.adId,
      field: s.field,
      term: s.term,
      title: cutText(s.title, 500),
      description: cutText(s.description, 6000),
      ip: s.ip,
      created_at: s.at,
    })
    .execute();
}

export async function listScreening(db: Executor, o: { offset: number; limit: number }) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('screening_log')
      .leftJoin('users', 'users.id', 'screening_log.user_id')
      .selectAll('screening_log')
      .select('users.email as user_email')
      .orderBy('screening_log.id', 'desc')
      .limit(o.limit)
      .offset(o.offset)
      .execute(),
    db
      .selectFrom('screening_log')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
