import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn } from '../ads/ads.testkit.ts';
import { getAs, holdsInForce, postAs } from './moderation.testkit.ts';

// A legal hold answers a legal request (a preservation letter, a subpoena) that is usually
// confidential. Holds and evidence exports are never a staff member's own business
// (moderation.policy.ts), and reports about one's own ads are hidden from their subject
// (reports.policy.ts); likewise a staff member whose account (or ad) is held does not read those
// holds in the back office they work in: the holds list and their own user record leave them out,
// and the audit log keeps their rows (that staff acted is no secret) with the reason and the
// release note blanked, as it blanks the closing note of a report about one's own ad. Every other
// staff member reads them whole.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(() => ctx.close());

const ACCOUNT_REASON = 'Preservation request FBI 26-0412, do not notify the subject';
const AD_REASON = 'Subpoena 26-0413 about one ad, confidential';
const RELEASE_NOTE = 'Subpoena 26-0413 withdrawn by the court';
const OTHER_REASON = 'Preservation request 26-0500 about another account';

type Hold = { targetId: string; reason: string; releaseNote: string | null };
type Entry = { action: string; after: { reason?: string; note?: string } | null };

describe('legal holds on a staff member’s own account or ads', () => {
  it('are out of their holds list and user record, and the log shows them without reason or note', async () => {
    const master = await asMaster(ctx);
    const subject = await asAdmin(ctx);
    const colleague = await asAdmin(ctx);
    const other = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, subject, master, await placeIn(ctx, 'ny'));
    const hold = (targetType: 'user' | 'ad', targetId: string, reason: string) =>
      postAs(ctx, master, '/api/admin/place-legal-hold', { targetType, targetId, reason });
    expect((await hold('user', subject.id, ACCOUNT_REASON)).status).toBe(201);
    expect((await hold('ad', ad.id, AD_REASON)).status).toBe(201);
    expect((await hold('user', other.id, OTHER_REASON)).status).toBe(201);
    const released = await postAs(ctx, master, '/api/admin/release-legal-hold', {
      targetType: 'ad',
      targetId: ad.id,
      holdIds: await holdsInForce(ctx, 'ad', ad.id),
      note: RELEASE_NOTE,
    });
    expect(released.status).toBe(200);

    const secrets = [ACCOUNT_REASON, AD_REASON, RELEASE_NOTE];
    const reads = async (u: TestUser) => {
      const holds = await getAs(ctx, u, '/api/admin/get-legal-holds');
      const record = await getAs(ctx, u, `/api/admin/get-user/${subject.id}`);
      const log = await getAs(ctx, u, '/api/admin/get-audit-log');
      return { holds: holds.body as { holds: Hold[]; total: number }, record: record.body, log: log.body as { auditLog: Entry[] } };
    };

    // The subject: another account's hold alone, counted alone; nothing of their own anywhere.
    const own = await reads(subject);
    expect({ total: own.holds.total, reasons: own.holds.holds.map((h) => h.reason) }).toEqual({ total: 1, reasons: [OTHER_REASON] });
    expect(own.record.holds).toEqual([]);
    expect(own.record.audit.filter((e: Entry) => e.action.startsWith('legal_hold.'))).toEqual([]);
    const ownLog = own.log.auditLog.filter((e) => e.action.startsWith('legal_hold.')).map((e) => [e.action, e.after?.reason ?? e.after?.note]);
    expect(ownLog.sort()).toEqual(
      [
        ['legal_hold.place', ''],
        ['legal_hold.place', ''],
        ['legal_hold.place', OTHER_REASON],
        ['legal_hold.release', ''],
      ].sort(),
    );
    for (const body of [own.holds, own.record, own.log]) for (const s of secrets) expect(JSON.stringify(body)).not.toContain(s);

    // Another staff member reads all of it.
    const theirs = await reads(colleague);
    expect(theirs.holds.total).toBe(3);
    expect(theirs.record.holds.map((h: Hold) => h.reason).sort()).toEqual([ACCOUNT_REASON, AD_REASON].sort());
    for (const s of [...secrets, OTHER_REASON]) expect(JSON.stringify(theirs.log)).toContain(s);
  });
});
