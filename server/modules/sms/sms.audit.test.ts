import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, type TestContext, type TestUser } from '../../test/harness.ts';

// The audit row of a staff test SMS says what was sent, not only to whom: staff may text any US
// number any words from the platform's own sender, the SMS log's copy goes with its retention, and
// the audit row is what a reviewer has left to tell a harmless test from a threat sent in the
// platform's name.

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

describe('a staff test SMS', () => {
  it('records the text sent in its audit row', async () => {
    const message = 'Pay 200 USD to my cashapp or your ads stay in review.';
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/send-textbelt-test-sms',
      headers: { cookie: admin.cookie },
      payload: { phone: '(212) 555-0100', message },
    });
    expect(sent.statusCode).toBe(200);
    const row = await ctx.app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'sms.test_send').executeTakeFirstOrThrow();
    expect({ actor: row.actor_id, after: JSON.parse(row.after_json!) }).toEqual({
      actor: admin.id,
      after: { to: '+12125550100', text: message, status: sent.json().message.status },
    });
  });
});
