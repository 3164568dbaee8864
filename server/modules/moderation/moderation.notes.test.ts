import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { postAs } from './moderation.testkit.ts';

// Staff free text that lands in the audit log (a legal hold's reason, its release note) is stored as
// one line without control, format and bidi characters, as public text is: U+202E would reverse
// the rest of its audit row, backspaces erase, an ESC sequence rewrite a terminal reading the database.

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const DIRTY = 'Preservation letter 2026-114 \u202Eesaeler\u202C \u0008\u0008\u0007\u001b[2K\r\n done';
const CLEAN = 'Preservation letter 2026-114 esaeler [2K done';
const auditAfter = async (action: string) => {
  const row = await ctx.app.deps.db.selectFrom('audit_log').select('after_json').where('action', '=', action).executeTakeFirstOrThrow();
  return JSON.parse(row.after_json!) as Record<string, unknown>;
};

describe('legal hold notes', () => {
  it('stores a hold reason and a release note without control or bidi characters, in the hold and its audit rows', async () => {
    const provider = await makeUser(ctx, { status: 'approved' });
    const placed = await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'user', targetId: provider.id, reason: DIRTY });
    expect([placed.status, placed.body.hold.reason]).toEqual([201, CLEAN]);
    const released = await postAs(ctx, admin, '/api/admin/release-legal-hold', {
      targetType: 'user',
      targetId: provider.id,
      holdIds: [placed.body.hold.id],
      note: `${DIRTY}.`,
    });
    expect(released.status).toBe(200);
    expect(await auditAfter('legal_hold.place')).toMatchObject({ reason: CLEAN });
    expect(await auditAfter('legal_hold.release')).toMatchObject({ note: `${CLEAN}.` });
    const hold = await ctx.app.deps.db.selectFrom('legal_holds').select(['reason', 'release_note']).executeTakeFirstOrThrow();
    expect(hold).toEqual({ reason: CLEAN, release_note: `${CLEAN}.` });
  });

  it('counts the length of what is stored: a reason of control characters alone is too short', async () => {
    const provider = await makeUser(ctx, { status: 'approved' });
    const placed = await postAs(ctx, admin, '/api/admin/place-legal-hold', {
      targetType: 'user',
      targetId: provider.id,
      reason: '\u202E\u0008\u0007\u200B\u2066x',
    });
    expect([placed.status, placed.body.code]).toEqual([400, 'moderation.hold_reason_length']);
  });
});
