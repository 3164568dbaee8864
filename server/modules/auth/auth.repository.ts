import type { Executor } from '../../core/db.ts';
import type { StaffRole, UserStatus } from '../../core/schema.ts';

export function findUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function insertUser(
  db: Executor,
  u: { id: string; email: string; passwordHash: string; nickname: string; status: UserStatus; roles: StaffRole[]; now: string },
): Promise<void> {
  await db
    .insertInto('users')
    .values({ id: u.id, email: u.email, password_hash: u.passwordHash, nickname: u.nickname, status: u.status, created_at: u.now, updated_at: u.now })
    .execute();
  await db
    .insertInto('user_roles')
    .values(u.roles.map((role) => ({ user_id: u.id, role })))
    .execute();
}

export async function insertWallet(db: Executor, w: { id: string; userId: string; walletType: 'USD' | 'XG-PROMO-WALLET'; now: string }) {
  await db.insertInto('wallets').values({ id: w.id, user_id: w.userId, wallet_type: w.walletType, created_at: w.now }).execute();
}

export async function bumpTokenVersion(db: Executor, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
    .where('id', '=', userId)
    .execute();
}

export async function recordSignIn(db: Executor, s: { userId: string; ip: string; userAgent: string | null; at: string }) {
  await db
    .insertInto('sign_ins')
    .values({ user_id: s.userId, ip: s.ip, user_agent: s.userAgent?.slice(0, 300) ?? null, at: s.at })
    .execute();
}

export async function countMasters(db: Executor): Promise<number> {
  const r = await db
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'MASTER_USER')
    .where('users.deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
