import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { getAs, postAs } from '../moderation/moderation.testkit.ts';

// A staff member never credits their own wallet with a promo code they created or last edited: a
// code worth up to $10,000 minted for oneself takes a second person, as every other self-interested
// staff act does.

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const promoBalance = async (u: TestUser) => {
  const { body } = await getAs(ctx, u, '/api/all-wallets-by-user');
  return (body.wallets as { walletType: string; amountCents: number }[]).find((w) => w.walletType === 'XG-PROMO-WALLET')?.amountCents ?? 0;
};
const createCode = async (by: TestUser, code: string) => {
  const res = await postAs(ctx, by, '/api/admin/set-promo-code-by-id', { code, amountCents: 1_000_000, maxUses: 5, expiresAt: null, active: true });
  expect(res.status).toBe(201);
  return res.body.promoCode as { id: string; code: string; amountCents: number; maxUses: number; expiresAt: string | null; active: boolean };
};
const redeem = async (u: TestUser, code: string) => {
  const res = await postAs(ctx, u, '/api/add-promo-code-to-promo-wallet', { code });
  return { status: res.status, code: res.body.code as string | undefined, promoBalanceCents: await promoBalance(u) };
};
const authors = (id: string) => ctx.app.deps.db.selectFrom('promo_codes').select(['created_by', 'updated_by']).where('id', '=', id).executeTakeFirstOrThrow();

describe('promo codes and their authors', () => {
  it('refuses the admin who created a code redeeming it on their own account (409); another user redeems it', async () => {
    const code = await createCode(admin, 'SELF-MINT');
    expect(await authors(code.id)).toEqual({ created_by: admin.id, updated_by: null });
    expect(await redeem(admin, 'SELF-MINT')).toEqual({ status: 409, code: 'wallet.promo_code_own', promoBalanceCents: 0 });
    const provider = await makeUser(ctx, { status: 'approved' });
    expect(await redeem(provider, 'SELF-MINT')).toMatchObject({ status: 200, promoBalanceCents: 1_000_000 });
    // Nothing of the refusal was used up or recorded: the audit keeps the creation alone.
    const rows = await ctx.app.deps.db.selectFrom('audit_log').select(['action', 'actor_id']).where('target_id', '=', code.id).execute();
    expect(rows).toEqual([{ action: 'promo_code.create', actor_id: admin.id }]);
  });

  it('refuses the admin who last edited a code, and still its creator; a third admin redeems it', async () => {
    const creator = await asAdmin(ctx);
    const code = await createCode(creator, 'EDITED-CODE');
    const edit = await postAs(ctx, admin, '/api/admin/set-promo-code-by-id', {
      id: code.id,
      code: 'EDITED-CODE',
      amountCents: 500_000,
      maxUses: 5,
      active: true,
    });
    expect(edit.status).toBe(200);
    expect(await authors(code.id)).toEqual({ created_by: creator.id, updated_by: admin.id });
    expect(await redeem(admin, 'EDITED-CODE')).toEqual({ status: 409, code: 'wallet.promo_code_own', promoBalanceCents: 0 });
    expect(await redeem(creator, 'EDITED-CODE')).toEqual({ status: 409, code: 'wallet.promo_code_own', promoBalanceCents: 0 });
    expect(await redeem(await asAdmin(ctx), 'EDITED-CODE')).toMatchObject({ status: 200, promoBalanceCents: 500_000 });
  });

  it("refuses a staff member's own welcome code once they edited it; unedited, they redeem it as anyone does", async () => {
    const other = await asAdmin(ctx);
    for (const u of [admin, other]) expect((await getAs(ctx, u, '/api/email-wallet-promo-code')).status).toBe(200);
    const codeOf = async (u: TestUser) =>
      await ctx.app.deps.db.selectFrom('promo_codes').selectAll().where('owner_user_id', '=', u.id).executeTakeFirstOrThrow();
    const mine = await codeOf(admin);
    expect([mine.created_by, mine.updated_by]).toEqual([null, null]);
    const edit = await postAs(ctx, admin, '/api/admin/set-promo-code-by-id', {
      id: mine.id,
      code: mine.code,
      amountCents: 1_000_000,
      maxUses: 1,
      active: true,
    });
    expect(edit.status).toBe(200);
    expect(await redeem(admin, mine.code)).toEqual({ status: 409, code: 'wallet.promo_code_own', promoBalanceCents: 0 });
    expect(await redeem(other, (await codeOf(other)).code)).toMatchObject({ status: 200, promoBalanceCents: 2000 });
  });

  it('migration 0038 names the authors of codes made before it, as the audit log does', async () => {
    const creator = await asAdmin(ctx);
    const code = await createCode(creator, 'BEFORE-0038');
    const edit = await postAs(ctx, admin, '/api/admin/set-promo-code-by-id', { id: code.id, code: code.code, amountCents: 700, maxUses: 5, active: true });
    expect(edit.status).toBe(200);
    const sqlite = ctx.app.deps.database.sqlite;
    sqlite.prepare('UPDATE promo_codes SET created_by = NULL, updated_by = NULL').run(); // as before 0038
    const migration = fs.readFileSync(path.join(import.meta.dirname, '../../../migrations/sqlite/0038_promo_code_authors.sql'), 'utf8');
    sqlite.exec(migration.slice(migration.indexOf('UPDATE promo_codes')));
    expect(await authors(code.id)).toEqual({ created_by: creator.id, updated_by: admin.id });
  });
});
