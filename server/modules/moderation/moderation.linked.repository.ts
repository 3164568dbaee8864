import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';

// The accounts linked to one by a shared phone, a near-identical photo or a network: shown on the
// staff user page, and, without networks, the conflict-of-interest rule of ad review.

/**
 * The accounts linked to this one, as (user_id, reason) rows of a `found` CTE: sharing a phone
 * (phone duplicate flags, or one of its phones, its ads' and its verified one, among another
 * account's ads' phones and verified phone) or a near-identical photo (photo flags); with `ips`,
 * also a network it signed in from successfully: an IPv4 address, or an IPv6 /64
 * (sign_ins.ip_key), one subscriber's as for every per-IP limit. A verified phone links with no ad
 * on either side: a suspended provider back with a new account, staff with their own second
 * account. A copied text (a `text` flag) links nobody: anyone can copy a public advert's words,
 * and a copy must not bar its author's reviewer. Verified phones by users_verified_phone (0044),
 * ads' phones by ads_phone.
 */
const linkedAccountsCte = (userId: string, ips: boolean) => sql`
    WITH mine AS (SELECT id FROM ads WHERE owner_id = ${userId} UNION SELECT id FROM held_ads WHERE owner_id = ${userId}),
    phones AS (
      SELECT phone FROM ads WHERE owner_id = ${userId}
      UNION SELECT phone FROM users WHERE id = ${userId} AND phone_verified_at IS NOT NULL AND phone IS NOT NULL
    ),
    found AS (
      SELECT other_owner_id AS user_id, kind AS reason FROM duplicate_flags WHERE ad_id IN (SELECT id FROM mine) AND kind != 'text'
      UNION SELECT owner_id, 'phone' FROM ads WHERE phone IN (SELECT phone FROM phones) AND owner_id != ${userId}
      UNION SELECT id, 'phone' FROM users WHERE phone IN (SELECT phone FROM phones) AND phone_verified_at IS NOT NULL AND id != ${userId}
      ${
        ips
          ? sql`UNION SELECT s2.user_id, 'ip' FROM sign_ins s1 JOIN sign_ins s2 ON s2.ip_key = s1.ip_key AND s2.user_id != s1.user_id AND s2.success = 1
        WHERE s1.user_id = ${userId} AND s1.success = 1`
          : sql``
      }
    )`;

/** Other accounts related to this one (the staff user page): linkedAccountsCte, networks included. */
export async function relatedAccounts(db: Executor, userId: string, limit: number) {
  const r = await sql<{ id: string; email: string; nickname: string; reason: 'phone' | 'photo' | 'ip' }>`
    ${linkedAccountsCte(userId, true)}
    SELECT u.id, u.email, u.nickname, f.reason FROM found f JOIN users u ON u.id = f.user_id WHERE u.id != ${userId}
    ORDER BY u.email LIMIT ${limit * 3}`.execute(db);
  const byUser = new Map<string, { id: string; email: string; nickname: string; reasons: ('phone' | 'photo' | 'ip')[] }>();
  for (const row of r.rows) {
    const u = byUser.get(row.id) ?? { id: row.id, email: row.email, nickname: row.nickname, reasons: [] };
    if (!u.reasons.includes(row.reason)) u.reasons.push(row.reason);
    byUser.set(row.id, u);
  }
  return [...byUser.values()].slice(0, limit).map((u) => ({ ...u, reasons: (['phone', 'photo', 'ip'] as const).filter((x) => u.reasons.includes(x)) }));
}

/**
 * The accounts the product links to this one by a phone or a photo (linkedAccountsCte), for the
 * conflict-of-interest rule: staff review no ad of such an account (ads.review.service.ts), as they
 * review none of their own. Not by network: staff share an office's or a VPN's address with
 * providers who have nothing to do with them, and that alone must not stop their work.
 */
export async function accountsLinkedTo(db: Executor, userId: string): Promise<Set<string>> {
  const r = await sql<{ user_id: string }>`
    ${linkedAccountsCte(userId, false)}
    SELECT DISTINCT user_id FROM found WHERE user_id != ${userId}`.execute(db);
  return new Set(r.rows.map((x) => x.user_id));
}
