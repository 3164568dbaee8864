import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, type TestContext, type TestUser } from '../../test/harness.ts';
import { postAs } from '../moderation/moderation.testkit.ts';

// A report's closing note lands in the audit log: stored as one line without control, format and
// bidi characters, as public text is (an RLO would make its audit row read as something else).

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const file = async () => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/reports',
    payload: { kind: 'contact', message: 'Please call me back about my account.', contact: 'someone@example.org' },
    remoteAddress: '203.0.113.9',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

describe("a report's closing note", () => {
  it('is stored without control or bidi characters', async () => {
    const id = await file();
    const note = 'Answered by phone \u202Edesolc\u202C\u0008\u0007\u001b[2K\r\n, nothing to do.';
    expect((await postAs(ctx, admin, '/api/admin/set-report-status', { id, status: 'closed', note })).status).toBe(200);
    const row = await ctx.app.deps.db.selectFrom('audit_log').select('after_json').where('action', '=', 'report.status').executeTakeFirstOrThrow();
    expect(JSON.parse(row.after_json!)).toEqual({ status: 'closed', note: 'Answered by phone desolc[2K , nothing to do.' });
  });

  it('of control characters alone is no note: the report is closed without one', async () => {
    const id = await file();
    expect((await postAs(ctx, admin, '/api/admin/set-report-status', { id, status: 'closed', note: '\u202E\u0008\u200B' })).status).toBe(200);
    const row = await ctx.app.deps.db.selectFrom('audit_log').select('after_json').where('action', '=', 'report.status').executeTakeFirstOrThrow();
    expect(JSON.parse(row.after_json!)).toEqual({ status: 'closed' });
  });
});
