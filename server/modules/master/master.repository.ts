import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { StaffRole, UserStatus } from '../../core/schema.ts';

export interface UserListFilter {
  statuses: UserStatus[];
  query?: string;
  limit: number;
  offset: number;
}

/**
 * `%`, `_` and `\` in the search text are literal characters, not wildcards. NFKC, as
 * normalizeEmail (contract/rules.ts) stores addresses: an accent typed as a combining mark, or fullwidth letters,
 * still find the account (nicknames are ASCII, which NFKC leaves alone). A NUL would end the
 * pattern there ('%<NUL>%' is '%': every account): it becomes U+0001, which no address or
 * nickname holds either (both refuse control characters), so it finds none, as a NUL does.
 */
const likePattern = (q: string) => {
  const text = q.normalize('NFKC').toLowerCase().replace(/\0/g, '\u0001');
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
};

export async function listUsers(db: Executor, f: UserListFilter) {
  let base = db.selectFrom('users').where('deleted_at', 'is', null).where('status', 'in', f.statuses);
  if (f.query) {
    const p = likePattern(f.query);
    base = base.where(sql<boolean>`(lower(email) LIKE ${p} ESCAPE '\\' OR lower(nickname) LIKE ${p} ESCAPE '\\')`);
  }
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['id', 'email', 'nickname', 'status', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(f.limit)
    .offset(f.offset)
    .execute();
  return { rows, total: Number(total.n) };
}

export async function rolesByUser(db: Executor, ids: string[]): Promise<Map<string, StaffRole[]>> {
  const map = new Map<string, StaffRole[]>();
  if (!ids.length) return map;
  const rows = await db.selectFrom('user_roles').select(['user_id', 'role']).where('user_id', 'in', ids).execute();
  const order: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'];
  for (const id of ids)
    map.set(
      id,
      order.filter((r) => rows.some((x) => x.user_id === id && x.role === r)),
    );
  return map;
}

/** When staff first approved the account; null: never (migration 0032). */
export async function approvedAt(db: Executor, id: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('approved_at').where('id', '=', id).executeTakeFirst();
  return row?.approved_at ?? null;
}

export function findUser(db: Executor, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'nickname', 'status', 'created_at'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function setRoles(db: Executor, userId: string, roles: StaffRole[]): Promise<void> {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  await db
    .insertInto('user_roles')
    .values(roles.map((role) => ({ user_id: userId, role })))
    .execute();
}

/** A suspension also ends every session of the account for good: reinstated, it signs in again (a cookie stolen before stays dead). */
export async function setStatus(db: Executor, userId: string, status: UserStatus, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      status,
      updated_at: now,
      ...(status === 'suspended' ? { token_version: eb('token_version', '+', 1) } : {}),
      ...(status === 'approved' ? { approved_at: eb.fn.coalesce('approved_at', eb.val(now)) } : {}),
    }))
    .where('id', '=', userId)
    .execute();
}
