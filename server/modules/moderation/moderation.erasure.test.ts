import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, cookieOf, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { createMailer } from '../../core/mailer.ts';
import { multipart } from '../uploads/test-images.ts';
import { liveAd, placeIn } from '../ads/ads.testkit.ts';
import { purgeSms } from '../sms/sms.jobs.ts';
import { holdsInForce, postAs, readZip } from './moderation.testkit.ts';

// Legal holds keep a held account's former e-mails, nicknames and pictures for the evidence file;
// an erasure leaves the account's personal data in no table and no file under DATA_DIR.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const del = (u: TestUser, cookie = u.cookie) =>
  ctx.app.inject({ method: 'DELETE', url: '/api/delete-my-profile?confirm=true', payload: { password: u.password }, headers: { cookie } });
const hold = (staff: TestUser, targetType: 'user' | 'ad', targetId: string) =>
  postAs(ctx, staff, '/api/admin/place-legal-hold', { targetType, targetId, reason: 'Preservation letter 2026-77' });
const release = async (staff: TestUser, targetType: 'user' | 'ad', targetId: string) =>
  postAs(ctx, staff, '/api/admin/release-legal-hold', {
    targetType,
    targetId,
    holdIds: await holdsInForce(ctx, targetType, targetId),
    note: 'The agency closed the case.',
  });
const exportZip = async (staff: TestUser, id: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/export-evidence/${id}`, headers: { cookie: staff.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return readZip(res.rawPayload);
};
const solidPng = (background: string) =>
  sharp({ create: { width: 64, height: 64, channels: 3, background } })
    .png()
    .toBuffer();
const setAvatar = async (u: TestUser, image: Buffer) => {
  const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', data: image }]);
  const res = await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: u.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().avatar as string).replace(/^\/uploads\//, '');
};

/** Changes the account's e-mail (asked, then confirmed through the mailed link) and nickname; returns the new session's cookie. */
async function changeIdentity(u: TestUser, newEmail: string, nickname: string): Promise<string> {
  const asked = await ctx.app.inject({ method: 'POST', url: '/api/email-reset', payload: { newEmail, password: u.password }, headers: { cookie: u.cookie } });
  expect(asked.statusCode, asked.body).toBe(200);
  const token = /token=([A-Za-z0-9_-]+)/.exec(JSON.stringify(ctx.mailer.sent.at(-1)))![1];
  const confirmed = await ctx.app.inject({ method: 'POST', url: '/api/confirm-email-reset', payload: { token } });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const cookie = cookieOf(await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: newEmail, password: u.password } }));
  const renamed = await ctx.app.inject({ method: 'POST', url: '/api/nickname-update', payload: { nickname }, headers: { cookie } });
  expect(renamed.statusCode, renamed.body).toBe(200);
  return cookie;
}

/** Tables (every table, FTS shadow tables included) whose rows hold one of the markers. */
function markersInDb(markers: string[]): Record<string, string[]> {
  const sqlite = ctx.app.deps.database.sqlite;
  const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    let rows: unknown[];
    try {
      rows = sqlite.prepare(`SELECT * FROM "${t}"`).raw().all();
    } catch {
      continue; // the contentless fts5 table itself: its shadow tables are read
    }
    const text = rows
      .flat()
      .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)))
      .join('\n');
    const found = markers.filter((m) => text.includes(m));
    if (found.length) out[t] = found;
  }
  return out;
}

/** Files under DATA_DIR (the database files aside) holding one of the markers. */
function markersInFiles(markers: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && !e.name.startsWith('xg.sqlite')) {
        const text = fs.readFileSync(full).toString('latin1');
        const found = markers.filter((m) => text.includes(m));
        if (found.length) out[path.relative(ctx.dataDir, full)] = found;
      }
    }
  };
  walk(ctx.dataDir);
  return out;
}

const outbox = () => path.join(ctx.dataDir, 'outbox');
const outboxFiles = () => (fs.existsSync(outbox()) ? fs.readdirSync(outbox()).sort() : []);

describe('legal holds keep the evidence', () => {
  // A preservation request names the account by the address (and nickname) it had then: a held
  // account changing them keeps the old ones on record, in held_identity alone, and in the ZIP.
  it('a held account changing its e-mail and nickname keeps the old ones in the evidence file', async () => {
    const admin = await asAdmin(ctx);
    const u = await makeUser(ctx, { status: 'approved', email: 'first.address@example.com', nickname: 'FirstNickZ' });
    expect((await hold(admin, 'user', u.id)).status).toBe(201);
    await changeIdentity(u, 'second.address@example.com', 'SecondNickZ');

    const files = await exportZip(admin, u.id);
    const zip = [...files.values()].map((b) => b.toString('utf8')).join('\n');
    expect({
      oldEmailInZip: zip.includes('first.address@example.com'),
      oldNicknameInZip: zip.includes('FirstNickZ'),
      tablesKeepingOldEmail: Object.keys(markersInDb(['first.address@example.com'])),
    }).toEqual({ oldEmailInZip: true, oldNicknameInZip: true, tablesKeepingOldEmail: ['held_identity'] });
    const history = JSON.parse(files.get('identity-history.json')!.toString('utf8')) as { field: string; old_value: string; new_value: string }[];
    expect(history.map(({ field, old_value, new_value }) => ({ field, old_value, new_value }))).toEqual([
      { field: 'email', old_value: 'first.address@example.com', new_value: 'second.address@example.com' },
      { field: 'nickname', old_value: 'FirstNickZ', new_value: 'SecondNickZ' },
    ]);
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as { files: { name: string }[] };
    expect(manifest.files.map((f) => f.name)).toContain('identity-history.json');
  });

  it('an account under no hold changing its e-mail and nickname keeps nothing of the old ones', async () => {
    const u = await makeUser(ctx, { status: 'approved', email: 'first.address@example.com', nickname: 'FirstNickZ' });
    await changeIdentity(u, 'second.address@example.com', 'SecondNickZ');
    expect(markersInDb(['first.address@example.com', 'FirstNickZ'])).toEqual({});
  });

  it('the old e-mails and nicknames go when the last hold is released, and with the account a release erases', async () => {
    const admin = await asAdmin(ctx);
    const live = await makeUser(ctx, { status: 'approved', email: 'live.first@example.com', nickname: 'LiveFirstZ' });
    const closed = await makeUser(ctx, { status: 'approved', email: 'closed.first@example.com', nickname: 'ClosedFirstZ' });
    for (const u of [live, closed]) expect((await hold(admin, 'user', u.id)).status).toBe(201);
    await changeIdentity(live, 'live.second@example.com', 'LiveSecondZ');
    const cookie = await changeIdentity(closed, 'closed.second@example.com', 'ClosedSecondZ');
    expect((await del(closed, cookie)).statusCode).toBe(200); // closed, not erased: held
    expect(Object.keys(markersInDb(['closed.first@example.com', 'ClosedFirstZ']))).toEqual(['held_identity']);

    for (const u of [live, closed]) expect((await release(admin, 'user', u.id)).status).toBe(200);
    expect(markersInDb(['live.first@example.com', 'LiveFirstZ', 'closed.first@example.com', 'ClosedFirstZ', 'closed.second@example.com'])).toEqual({});
  });

  // The account's picture and the pictures a hold kept when it was replaced are evidence: the ZIP
  // holds them byte for byte, and the manifest lists them.
  it('the evidence ZIP holds the account picture and the replaced one the hold kept', async () => {
    const admin = await asAdmin(ctx);
    const u = await makeUser(ctx, { status: 'approved' });
    const first = await setAvatar(u, await solidPng('#c11'));
    expect((await hold(admin, 'user', u.id)).status).toBe(201);
    const second = await setAvatar(u, await solidPng('#1c1'));
    expect(fs.existsSync(path.join(ctx.dataDir, 'uploads', first))).toBe(true); // kept for the hold
    const files = await exportZip(admin, u.id);
    const nameOf = (rel: string) => {
      const bytes = fs.readFileSync(path.join(ctx.dataDir, 'uploads', rel));
      return [...files].find(([, b]) => b.equals(bytes))?.[0];
    };
    expect({ current: nameOf(second), replaced: nameOf(first) }).toEqual({
      current: `account/avatar-${path.basename(second)}`,
      replaced: `account/replaced/01-${path.basename(first)}`,
    });
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as { files: { name: string }[]; missingPhotos: string[] };
    expect(manifest.files.map((f) => f.name)).toEqual(expect.arrayContaining([nameOf(second), nameOf(first)]));
    expect(manifest.missingPhotos).toEqual([]);
  });
});

describe('erasure completeness', () => {
  // What a staff member did as staff stays attributed to them after they erase their account: the
  // audit rows and the legal holds they placed or released keep their id and their e-mail as it was
  // (a legal-claims exception to erasure, GDPR art. 17(3)(e); core/audit.ts eraseActor). Nothing
  // else keeps the address.
  it("an erased staff member's e-mail stays on their audit rows and the legal holds they placed, and nowhere else", async () => {
    const boss = await asAdmin(ctx);
    const email = 'erased.admin.person@example.com';
    const gone = await makeUser(ctx, { email, roles: ['ADMIN_USER'], status: 'approved' });
    const provider = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, provider, gone, await placeIn(ctx, 'ny'));
    expect((await hold(gone, 'ad', ad.id)).status).toBe(201);
    expect((await del(gone)).statusCode).toBe(200);

    const audit = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-audit-log?pageSize=100', headers: { cookie: boss.cookie } });
    const holds = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-legal-holds', headers: { cookie: boss.cookie } });
    expect([audit.statusCode, holds.statusCode]).toEqual([200, 200]);
    expect(markersInDb([email])).toEqual({ audit_log: [email], legal_holds: [email] });
    expect(holds.json().holds.map((h: { placedBy: string }) => h.placedBy)).toEqual([email]);
    const actors = ctx.app.deps.database.sqlite.prepare('SELECT DISTINCT actor_email FROM audit_log WHERE actor_id = ?').pluck().all(gone.id);
    expect(actors).toEqual([email]);
    // The account itself is erased all the same.
    const row = ctx.app.deps.database.sqlite.prepare('SELECT email, nickname FROM users WHERE id = ?').get(gone.id);
    expect(row).toEqual({ email: `deleted-${gone.id}@deleted.invalid`, nickname: 'deleted' });
  });

  it("an erased staff member's e-mail stays on the legal holds they released", async () => {
    const boss = await asAdmin(ctx);
    const email = 'erased.releaser@example.com';
    const gone = await makeUser(ctx, { email, roles: ['ADMIN_USER'], status: 'approved' });
    const provider = await makeUser(ctx, { status: 'approved' });
    expect((await hold(boss, 'user', provider.id)).status).toBe(201);
    expect((await release(gone, 'user', provider.id)).status).toBe(200);
    expect((await del(gone)).statusCode).toBe(200);

    const holds = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-legal-holds', headers: { cookie: boss.cookie } });
    expect(holds.json().holds.map((h: { placedBy: string; releasedBy: string }) => [h.placedBy, h.releasedBy])).toEqual([[boss.email, email]]);
    expect(markersInDb([email])).toEqual({ audit_log: [email], legal_holds: [email] });
  });

  // Staff erased before migration 0033: its statements replace their address in what they did,
  // and name the releaser of a hold by id.
  it('migration 0033 replaces the address of staff erased before it, and records who released a hold by id', async () => {
    const boss = await asAdmin(ctx);
    const gone = await makeUser(ctx, { email: 'erased.earlier@example.com', roles: ['ADMIN_USER'], status: 'approved' });
    const provider = await makeUser(ctx, { status: 'approved' });
    expect((await hold(gone, 'user', provider.id)).status).toBe(201);
    expect((await release(boss, 'user', provider.id)).status).toBe(200);
    expect((await del(gone)).statusCode).toBe(200);
    // As a database from before 0033 would be: the erasure left the address, no releaser's id.
    const sqlite = ctx.app.deps.database.sqlite;
    sqlite.prepare("UPDATE audit_log SET actor_email = 'erased.earlier@example.com' WHERE actor_id = ?").run(gone.id);
    sqlite.prepare("UPDATE legal_holds SET placed_by_email = 'erased.earlier@example.com', released_by_id = NULL").run();
    const migration = fs.readFileSync(path.join(import.meta.dirname, '../../../migrations/sqlite/0033_held_identity.sql'), 'utf8');
    sqlite.exec(migration.slice(migration.indexOf('UPDATE legal_holds SET released_by_id')).replace(/CREATE INDEX[^;]*;/g, ''));
    expect(markersInDb(['erased.earlier@example.com'])).toEqual({});
    expect(sqlite.prepare('SELECT placed_by_email, released_by, released_by_id FROM legal_holds').all()).toEqual([
      { placed_by_email: `deleted-${gone.id}@deleted.invalid`, released_by: boss.email, released_by_id: boss.id },
    ]);
  });

  // The SMS log keeps its rows with the number cut; the text written to DATA_DIR/outbox (no
  // Textbelt key) goes with the account.
  it('erasing an account leaves its phone number in no file under DATA_DIR (the SMS outbox)', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    const other = await makeUser(ctx, { status: 'approved' });
    for (const [who, phone] of [
      [u, '(212) 555-0177'],
      [other, '(212) 555-0188'],
    ] as const) {
      const asked = await ctx.app.inject({ method: 'POST', url: '/api/phone-verification', payload: { phone }, headers: { cookie: who.cookie } });
      expect(asked.statusCode).toBe(202);
    }
    expect(Object.keys(markersInFiles(['5550177', '5550188']))).toHaveLength(2);
    expect((await del(u)).statusCode).toBe(200);
    expect(markersInDb(['5550177'])).toEqual({}); // the database is clean
    expect(Object.values(markersInFiles(['5550177', '5550188']))).toEqual([['5550188']]); // another account's text stays
  });

  // Without SMTP_URL mail goes to DATA_DIR/outbox/*.eml: the erasure removes the mail to the account's addresses.
  it('erasing an account removes the mail the outbox holds for its addresses', async () => {
    const admin = await asAdmin(ctx);
    const u = await makeUser(ctx, { status: 'approved', email: 'mailed.person@example.com' });
    expect((await hold(admin, 'user', u.id)).status).toBe(201);
    const cookie = await changeIdentity(u, 'mailed.second@example.com', 'MailedZ');
    const mailer = createMailer({ smtpUrl: null, mailFrom: ctx.app.deps.config.mailFrom, dataDir: ctx.dataDir }, ctx.app.log);
    for (const to of ['mailed.person@example.com', 'Mailed.Second@example.com', 'someone.else@example.com']) {
      await mailer.send({ to, subject: 'Your account', text: 'Hello.' });
    }
    expect(outboxFiles()).toHaveLength(3);
    expect((await del(u, cookie)).statusCode).toBe(200); // held: closed, its mail kept
    expect(outboxFiles()).toHaveLength(3);
    expect((await release(admin, 'user', u.id)).status).toBe(200); // erased now
    expect(markersInFiles(['mailed.person@example.com', 'mailed.second@example.com', 'Mailed.Second@example.com'])).toEqual({});
    expect(Object.values(markersInFiles(['someone.else@example.com']))).toEqual([['someone.else@example.com']]);
  });

  it('purge-sms removes outbox files (texts and mail) older than the SMS log is kept', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/phone-verification', payload: { phone: '(212) 555-0177' }, headers: { cookie: u.cookie } }))
        .statusCode,
    ).toBe(202);
    const mailer = createMailer({ smtpUrl: null, mailFrom: ctx.app.deps.config.mailFrom, dataDir: ctx.dataDir }, ctx.app.log);
    await mailer.send({ to: 'old.mail@example.com', subject: 'Old', text: 'Old.' });
    await mailer.send({ to: 'new.mail@example.com', subject: 'New', text: 'New.' });
    const sms = outboxFiles().find((n) => n.endsWith('.sms.txt'))!;
    const [eml1, eml2] = outboxFiles().filter((n) => n.endsWith('.eml'));
    const touch = (name: string, daysAgo: number) => {
      const t = new Date(ctx.clock.now().getTime() - daysAgo * DAY_MS);
      fs.utimesSync(path.join(outbox(), name), t, t);
    };
    const oldMail = outboxFiles().find((n) => fs.readFileSync(path.join(outbox(), n), 'utf8').includes('old.mail@'))!;
    touch(eml1, 89);
    touch(eml2, 89);
    touch(oldMail, 91);
    touch(sms, 91);
    await purgeSms(ctx.app.deps);
    expect(outboxFiles()).toEqual([eml1, eml2].filter((n) => n !== oldMail));
  });
});
