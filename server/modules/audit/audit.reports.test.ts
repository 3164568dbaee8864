import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, type TestContext, type TestUser } from '../../test/harness.ts';
import { getAs, postAs } from '../moderation/moderation.testkit.ts';
import { liveAd, placeIn } from '../ads/ads.testkit.ts';

// How another staff member closed a report about the reader's own ad (the closing note) stays
// hidden from the reader in the audit log also after the reader deleted that ad, as the reports
// list keeps it hidden then (the owner read from the ad's stored versions): an admin whose ad was
// reported must not read the note by deleting the ad first.

let ctx: TestContext;
let admin: TestUser;
let master: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
  master = await asMaster(ctx);
});
afterEach(async () => ctx.close());

const NOTE = 'Tip from tipster@example.org forwarded to NCMEC, case 77812.';
const closingNoteSeenBy = async (reader: TestUser, reportId: string) => {
  const { status, body } = await getAs(ctx, reader, `/api/admin/get-audit-log?targetType=report&targetId=${reportId}`);
  expect(status).toBe(200);
  return (body.auditLog as { action: string; after: { note?: string } }[]).find((r) => r.action === 'report.status')!.after.note;
};

describe('the audit log of a report about an ad its staff owner deleted', () => {
  it("hides the closing note from the ad's owner, and shows it to other staff", async () => {
    const ad = await liveAd(ctx, admin, master, await placeIn(ctx, 'ny'));
    const filed = await ctx.app.inject({
      method: 'POST',
      url: `/api/report-ad/${ad.id}`,
      payload: { message: 'This person looks under age to me.', contact: 'tipster@example.org' },
      remoteAddress: '203.0.113.9',
    });
    expect(filed.statusCode).toBe(201);
    const id = filed.json().id as string;
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: admin.cookie } })).statusCode).toBe(200);
    expect((await postAs(ctx, master, '/api/admin/set-report-status', { id, status: 'closed', note: NOTE })).status).toBe(200);
    expect(await closingNoteSeenBy(admin, id)).toBe('');
    expect(await closingNoteSeenBy(await asAdmin(ctx), id)).toBe(NOTE);
  });
});
