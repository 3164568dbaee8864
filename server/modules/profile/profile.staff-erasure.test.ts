import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, type TestContext, type TestUser } from '../../test/harness.ts';
import { getAs, postAs } from '../moderation/moderation.testkit.ts';

// Every staff action stays attributable to the staff member who did it (PRODUCT §1: "every staff
// action is audited"; the audit entry's "who", §4), also after that person erases their account:
// their e-mail on their professional acts is kept for legal claims (GDPR art. 17(3)(e)), while the
// account itself (its row, roles and sign-ins) is erased as any other.

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

describe('erasing a staff account', () => {
  it('keeps the acting staff member identifiable in the audit log', async () => {
    const pricing = (await getAs(ctx, admin, '/api/admin/get-all-pricing')).body.pricing as { id: string; kind: string }[];
    const price = pricing.find((p) => p.kind === 'ad')!;
    expect((await postAs(ctx, admin, '/api/admin/set-price-by-id', { id: price.id, priceCents: 1 })).status).toBe(200);
    const erased = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/delete-my-profile?confirm=true',
      headers: { cookie: admin.cookie },
      payload: { password: admin.password },
    });
    expect(erased.statusCode).toBe(200);
    const db = ctx.app.deps.db;
    const row = await db.selectFrom('audit_log').select(['actor_id', 'actor_email']).where('action', '=', 'pricing.update').executeTakeFirstOrThrow();
    expect(row).toEqual({ actor_id: admin.id, actor_email: admin.email });
    const account = await db.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', admin.id).executeTakeFirstOrThrow();
    expect(account.email).toBe(`deleted-${admin.id}@deleted.invalid`);
    expect(await db.selectFrom('user_roles').selectAll().where('user_id', '=', admin.id).execute()).toEqual([]);
  });
});
