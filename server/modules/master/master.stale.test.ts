import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asMaster, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';

// Two masters work the same lists (src/pages/master). Each row's action is built from what that
// master's page showed when it loaded, and says so in `from`: the pending screen sends the status
// it showed, the approved-users screen the roles it showed beside the full set it built from them.
// The server applies the change only when the user is still as shown.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const post = (url: string, payload: unknown, cookie: string) => ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie } });
const statusOf = async (id: string) => (await ctx.app.deps.db.selectFrom('users').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const rolesOf = async (id: string) =>
  (await ctx.app.deps.db.selectFrom('user_roles').select('role').where('user_id', '=', id).execute()).map((r) => r.role).sort();
const auditAbout = (id: string) => ctx.app.deps.db.selectFrom('audit_log').select(['action', 'actor_id']).where('target_id', '=', id).orderBy('id').execute();
const tokenVersionOf = async (id: string) =>
  (await ctx.app.deps.db.selectFrom('users').select('token_version').where('id', '=', id).executeTakeFirstOrThrow()).token_version;

describe('a master acting on a user another master just changed', () => {
  // Master B suspends a new account from the pending list; master A, whose pending list still
  // shows it pending, clicks Approve: B's suspension stands, A is told the account changed.
  it("approving from a stale pending list does not lift another master's suspension", async () => {
    const a = await asMaster(ctx);
    const b = await asMaster(ctx);
    const x = await makeUser(ctx);
    const listA = (await ctx.app.inject({ method: 'GET', url: '/api/master/get-pending-users', headers: { cookie: a.cookie } })).json();
    const shown = listA.pendingUsers.find((u: { id: string }) => u.id === x.id);
    expect(shown.status).toBe('pending');
    expect((await post('/api/master/update-user-status', { userId: x.id, status: 'suspended', from: 'pending' }, b.cookie)).statusCode).toBe(200);
    const versionAfterB = await tokenVersionOf(x.id);
    const auditAfterB = await auditAbout(x.id);

    const res = await post('/api/master/update-user-status', { userId: x.id, status: 'approved', from: shown.status }, a.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'master.user_changed', message: 'This account changed meanwhile: the list shows it as it is now.' });
    expect(await statusOf(x.id)).toBe('suspended');
    expect(await tokenVersionOf(x.id)).toBe(versionAfterB);
    expect(await auditAbout(x.id)).toEqual(auditAfterB); // nothing audited for the refused click
    expect(auditAfterB).toEqual([{ action: 'user.status', actor_id: b.id }]);
  });

  // X is admin and master. B demotes X (unticks MASTER_USER); A, whose approved-users page still
  // shows X with both roles, unticks ADMIN_USER: the set A's screen built would make X master again.
  it('a role toggled on a stale row does not give back a role another master just removed', async () => {
    const a = await asMaster(ctx);
    const b = await asMaster(ctx);
    const x = await makeUser(ctx, { roles: ['ADMIN_USER', 'MASTER_USER'], status: 'approved' });
    const shown = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'];
    expect((await post('/api/master/update-user-roles', { userId: x.id, roles: ['PROVIDER_USER', 'ADMIN_USER'], from: shown }, b.cookie)).statusCode).toBe(200);
    const auditAfterB = await auditAbout(x.id);

    const res = await post('/api/master/update-user-roles', { userId: x.id, roles: ['PROVIDER_USER', 'MASTER_USER'], from: shown }, a.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('master.user_changed');
    expect(await rolesOf(x.id)).toEqual(['ADMIN_USER', 'PROVIDER_USER']); // B's demotion stands, A's change is not half-made
    expect(await auditAbout(x.id)).toEqual(auditAfterB);
    expect(auditAfterB).toEqual([{ action: 'user.roles', actor_id: b.id }]);
  });

  // Moved from a probe (round 11). B suspends X (say, for fraud); A, whose approved-users page
  // still shows X approved, grants X ADMIN_USER from the roles it showed, which have not changed:
  // the role would wait armed for whoever lifts the suspension. Refused, whatever the screen showed;
  // a role taken away from a suspended account is fine.
  it('a staff role is not given to an account another master just suspended; one is taken away', async () => {
    const a = await asMaster(ctx);
    const b = await asMaster(ctx);
    const x = await makeUser(ctx, { roles: ['ADMIN_USER'], status: 'approved' });
    const shown = ['PROVIDER_USER', 'ADMIN_USER'];
    expect((await post('/api/master/update-user-status', { userId: x.id, status: 'suspended', from: 'approved' }, b.cookie)).statusCode).toBe(200);
    const auditAfterB = await auditAbout(x.id);

    const res = await post('/api/master/update-user-roles', { userId: x.id, roles: [...shown, 'MASTER_USER'], from: shown }, a.cookie);
    expect([res.statusCode, res.json().code]).toEqual([409, 'master.user_suspended']);
    expect(await rolesOf(x.id)).toEqual(['ADMIN_USER', 'PROVIDER_USER']);
    expect(await auditAbout(x.id)).toEqual(auditAfterB);

    const removed = await post('/api/master/update-user-roles', { userId: x.id, roles: ['PROVIDER_USER'], from: shown }, a.cookie);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await rolesOf(x.id)).toEqual(['PROVIDER_USER']);
  });

  it('a change made from the status the user still has is applied and audited', async () => {
    const m = await asMaster(ctx);
    const x = await makeUser(ctx);
    const res = await post('/api/master/update-user-status', { userId: x.id, status: 'approved', from: 'pending' }, m.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ id: x.id, status: 'approved' });
    expect(await statusOf(x.id)).toBe('approved');
    const suspend = await post('/api/master/update-user-status', { userId: x.id, status: 'suspended', from: 'approved' }, m.cookie);
    expect(suspend.statusCode).toBe(200);
    expect(await statusOf(x.id)).toBe('suspended');
    expect(await auditAbout(x.id)).toEqual([
      { action: 'user.status', actor_id: m.id },
      { action: 'user.status', actor_id: m.id },
    ]);
  });

  it('a change made from the roles the user still has is applied and audited, in any order they are listed', async () => {
    const m = await asMaster(ctx);
    const x = await makeUser(ctx, { roles: ['ADMIN_USER'], status: 'approved' });
    const res = await post(
      '/api/master/update-user-roles',
      { userId: x.id, roles: ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'], from: ['ADMIN_USER', 'PROVIDER_USER'] },
      m.cookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.roles).toEqual(['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER']);
    expect(await rolesOf(x.id)).toEqual(['ADMIN_USER', 'MASTER_USER', 'PROVIDER_USER']);
    expect(await auditAbout(x.id)).toEqual([{ action: 'user.roles', actor_id: m.id }]);
  });

  it('a mismatch changes nothing, whatever was asked: 409, no audit row, the user as stored', async () => {
    const m = await asMaster(ctx);
    const x = await makeUser(ctx, { status: 'approved' });
    for (const [from, status] of [
      ['pending', 'approved'],
      ['pending', 'suspended'],
      ['suspended', 'approved'],
      ['suspended', 'pending'],
      ['pending', 'pending'], // asks for nothing new, but from a row that no longer is
    ] as const) {
      const res = await post('/api/master/update-user-status', { userId: x.id, status, from }, m.cookie);
      expect(res.statusCode, `${from} → ${status}`).toBe(409);
      expect(res.json().code).toBe('master.user_changed');
    }
    for (const from of [[], ['PROVIDER_USER', 'ADMIN_USER'], ['PROVIDER_USER', 'MASTER_USER', 'ADMIN_USER']]) {
      const res = await post('/api/master/update-user-roles', { userId: x.id, roles: ['PROVIDER_USER', 'ADMIN_USER'], from }, m.cookie);
      expect(res.statusCode, JSON.stringify(from)).toBe(409);
      expect(res.json().code).toBe('master.user_changed');
    }
    expect(await statusOf(x.id)).toBe('approved');
    expect(await rolesOf(x.id)).toEqual(['PROVIDER_USER']);
    expect(await auditAbout(x.id)).toEqual([]);
  });

  it('a non-master is refused (403) before anything about the user is compared', async () => {
    const x = await makeUser(ctx, { status: 'approved' });
    const admin = await makeUser(ctx, { roles: ['ADMIN_USER'], status: 'approved' });
    expect((await post('/api/master/update-user-status', { userId: x.id, status: 'suspended', from: 'pending' }, admin.cookie)).statusCode).toBe(403);
    expect((await post('/api/master/update-user-roles', { userId: x.id, roles: ['ADMIN_USER'], from: ['ADMIN_USER'] }, admin.cookie)).statusCode).toBe(403);
  });

  it('refuses a `from` that is not a status or a role set, naming the field, and still refuses unknown fields', async () => {
    const m = await asMaster(ctx);
    const x = await makeUser(ctx);
    for (const [url, payload] of [
      ['/api/master/update-user-status', { userId: x.id, status: 'approved', from: 'deleted' }],
      ['/api/master/update-user-status', { userId: x.id, status: 'approved', from: ['pending'] }],
      ['/api/master/update-user-roles', { userId: x.id, roles: [], from: ['ROOT'] }],
      ['/api/master/update-user-roles', { userId: x.id, roles: [], from: ['ADMIN_USER', 'ADMIN_USER'] }],
      ['/api/master/update-user-roles', { userId: x.id, roles: [], from: 'PROVIDER_USER' }],
    ] as const) {
      const res = await post(url, payload, m.cookie);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(res.json()), JSON.stringify(payload)).toContain('from');
    }
    for (const [url, payload] of [
      ['/api/master/update-user-status', { userId: x.id, status: 'approved', from: 'pending', expected: 'pending' }],
      ['/api/master/update-user-roles', { userId: x.id, roles: [], from: ['PROVIDER_USER'], fromRoles: [] }],
    ] as const) {
      expect((await post(url, payload, m.cookie)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await statusOf(x.id)).toBe('pending');
    expect(await auditAbout(x.id)).toEqual([]);
  });
});
