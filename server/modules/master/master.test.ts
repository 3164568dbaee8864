import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const get = (url: string, cookie: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie } });
const post = (url: string, payload: unknown, cookie: string) => ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie } });
const rolesOf = async (id: string) =>
  (await ctx.app.deps.db.selectFrom('user_roles').select('role').where('user_id', '=', id).orderBy('role').execute()).map((r) => r.role);
const statusOf = async (id: string) => (await ctx.app.deps.db.selectFrom('users').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const auditRows = () => ctx.app.deps.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

describe('user lists', () => {
  it('lists pending users, newest first, paginated, searchable by e-mail or nickname', async () => {
    const m = await asMaster(ctx);
    const a = await makeUser(ctx, { email: 'alpha@example.com', nickname: 'alpha_one' });
    ctx.clock.advance(1000);
    const b = await makeUser(ctx, { email: 'beta@example.com', nickname: 'bravo' });
    ctx.clock.advance(1000);
    const c = await makeUser(ctx, { email: 'gamma@example.com', nickname: 'charlie', status: 'approved' });

    const all = await get('/api/master/get-pending-users', m.cookie);
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBe(2);
    expect(all.json().pendingUsers.map((u: { id: string }) => u.id)).toEqual([b.id, a.id]);
    expect(all.json().pendingUsers[0]).toEqual({
      id: b.id,
      email: 'beta@example.com',
      nickname: 'bravo',
      status: 'pending',
      roles: ['PROVIDER_USER'],
      createdAt: '2026-01-15T12:00:01.000Z',
    });
    const page2 = await get('/api/master/get-pending-users?page=2&pageSize=1', m.cookie);
    expect(page2.json()).toMatchObject({ total: 2, pendingUsers: [{ id: a.id }] });
    const byNick = await get('/api/master/get-pending-users?query=ALPHA_', m.cookie);
    expect(byNick.json()).toMatchObject({ total: 1, pendingUsers: [{ id: a.id }] });
    const byMail = await get('/api/master/get-pending-users?query=beta%40', m.cookie);
    expect(byMail.json()).toMatchObject({ total: 1, pendingUsers: [{ id: b.id }] });
    // Wildcards typed by the master are literal characters.
    expect((await get('/api/master/get-pending-users?query=%25', m.cookie)).json().total).toBe(0);
    expect(c.id).toBeTruthy();
  });

  it('finds an e-mail typed in another Unicode form (NFD accents, fullwidth letters), as accounts store it', async () => {
    const m = await asMaster(ctx);
    const jose = await makeUser(ctx, { email: 'jos\u00e9@example.com' });
    const kim = await makeUser(ctx, { email: 'kim@example.com' });
    const search = async (q: string) =>
      (await get(`/api/master/get-pending-users?query=${encodeURIComponent(q)}`, m.cookie)).json().pendingUsers.map((u: { id: string }) => u.id);
    expect(await search('jose\u0301@')).toEqual([jose.id]);
    expect(await search('\uff2b\uff29\uff2d@')).toEqual([kim.id]); // ＫＩＭ@
  });

  it('approved users include suspended ones, and can be narrowed by status', async () => {
    const m = await asMaster(ctx);
    const ok = await makeUser(ctx, { status: 'approved' });
    const bad = await makeUser(ctx, { status: 'suspended' });
    await makeUser(ctx); // pending: not listed
    const res = await get('/api/master/get-approved-users?pageSize=100', m.cookie);
    expect(res.statusCode).toBe(200);
    const ids = res.json().approvedUsers.map((u: { id: string }) => u.id);
    expect(ids.sort()).toEqual([m.id, ok.id, bad.id].sort());
    expect(res.json().total).toBe(3);
    const suspended = await get('/api/master/get-approved-users?status=suspended', m.cookie);
    expect(suspended.json()).toMatchObject({ total: 1, approvedUsers: [{ id: bad.id, status: 'suspended' }] });
    const master = res.json().approvedUsers.find((u: { id: string }) => u.id === m.id);
    expect(master.roles).toEqual(['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER']);
  });

  it('refuses bad paging and filters, naming the field', async () => {
    const m = await asMaster(ctx);
    for (const [q, field] of [
      ['pageSize=101', 'pageSize'],
      ['page=0', 'page'],
      ['pageSize=abc', 'pageSize'],
      ['status=pending', 'status'],
    ]) {
      const url = `/api/master/get-${field === 'status' ? 'approved' : 'pending'}-users?${q}`;
      const res = await get(url, m.cookie);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message).toContain(field);
    }
  });

  it('is for masters only', async () => {
    const admin = await asAdmin(ctx);
    const provider = await makeUser(ctx);
    for (const cookie of [admin.cookie, provider.cookie]) {
      expect((await get('/api/master/get-pending-users', cookie)).statusCode).toBe(403);
      expect((await get('/api/master/get-approved-users', cookie)).statusCode).toBe(403);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/master/get-approved-users' })).statusCode).toBe(401);
  });
});

describe('POST /api/master/update-user-roles', () => {
  it('sets roles, always keeps PROVIDER_USER and writes an audit row', async () => {
    const m = await asMaster(ctx);
    const u = await makeUser(ctx);
    const res = await post('/api/master/update-user-roles', { userId: u.id, roles: ['ADMIN_USER'] }, m.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: u.id, roles: ['PROVIDER_USER', 'ADMIN_USER'] });
    expect(await rolesOf(u.id)).toEqual(['ADMIN_USER', 'PROVIDER_USER']);
    // The change applies at the next request of the user.
    expect((await get('/api/admin/get-audit-log', u.cookie)).statusCode).toBe(200);

    await post('/api/master/update-user-roles', { userId: u.id, roles: [] }, m.cookie);
    expect(await rolesOf(u.id)).toEqual(['PROVIDER_USER']);
    const audit = await auditRows();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      actor_id: m.id,
      actor_email: m.email,
      action: 'user.roles',
      target_type: 'user',
      target_id: u.id,
      before_json: JSON.stringify({ roles: ['PROVIDER_USER'] }),
      after_json: JSON.stringify({ roles: ['PROVIDER_USER', 'ADMIN_USER'] }),
      at: '2026-01-15T12:00:00.000Z',
    });
  });

  it('a master cannot remove their own MASTER_USER role, and there is never zero masters', async () => {
    const m = await asMaster(ctx);
    const res = await post('/api/master/update-user-roles', { userId: m.id, roles: ['ADMIN_USER'] }, m.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'master.cannot_remove_own_master', message: 'You cannot remove your own MASTER_USER role.' });
    expect(await rolesOf(m.id)).toEqual(['ADMIN_USER', 'MASTER_USER', 'PROVIDER_USER']);
    // Another master may demote them.
    const m2 = await asMaster(ctx);
    expect((await post('/api/master/update-user-roles', { userId: m.id, roles: ['ADMIN_USER'] }, m2.cookie)).statusCode).toBe(200);
    expect(await rolesOf(m.id)).toEqual(['ADMIN_USER', 'PROVIDER_USER']);
    expect(await auditRows()).toHaveLength(1);
  });

  it('refuses bad input naming the field, unknown users with 404, and changes nothing', async () => {
    const m = await asMaster(ctx);
    const u = await makeUser(ctx);
    const cases = [
      [{ userId: u.id, roles: ['GUEST_USER'] }, 400, 'validation.invalid', /roles/],
      [{ userId: u.id, roles: ['SUPER_USER'] }, 400, 'validation.invalid', /roles/],
      [{ userId: u.id, roles: { role: 'ADMIN_USER' } }, 400, 'validation.invalid', /roles/],
      [{ userId: u.id, roles: ['ADMIN_USER', 'ADMIN_USER'] }, 400, 'validation.invalid', /roles/],
      [{ roles: ['ADMIN_USER'] }, 400, 'validation.required', /userId/],
      [{ userId: 'nobody', roles: ['ADMIN_USER'] }, 404, 'master.user_not_found', /not found/i],
    ] as const;
    for (const [payload, status, code, msg] of cases) {
      const res = await post('/api/master/update-user-roles', payload, m.cookie);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().code, JSON.stringify(payload)).toBe(code);
      expect(res.json().message).toMatch(msg);
    }
    expect(await rolesOf(u.id)).toEqual(['PROVIDER_USER']);
    expect(await auditRows()).toEqual([]);
  });

  it('an admin cannot change roles', async () => {
    const admin = await asAdmin(ctx);
    const u = await makeUser(ctx);
    expect((await post('/api/master/update-user-roles', { userId: u.id, roles: ['ADMIN_USER'] }, admin.cookie)).statusCode).toBe(403);
    expect((await post('/api/master/update-user-roles', { userId: admin.id, roles: ['MASTER_USER'] }, admin.cookie)).statusCode).toBe(403);
    expect(await rolesOf(u.id)).toEqual(['PROVIDER_USER']);
    expect(await rolesOf(admin.id)).toEqual(['ADMIN_USER', 'PROVIDER_USER']);
  });
});

describe('POST /api/master/update-user-status', () => {
  it('approves and suspends with audit rows; a suspended user is signed out at once', async () => {
    const m = await asMaster(ctx);
    const u = await makeUser(ctx);
    const ok = await post('/api/master/update-user-status', { userId: u.id, status: 'approved' }, m.cookie);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ id: u.id, status: 'approved' });
    expect(await statusOf(u.id)).toBe('approved');
    expect((await get('/api/master/get-pending-users', m.cookie)).json().total).toBe(0);

    const closed: number[] = [];
    const fakeSocket = { readyState: 1, OPEN: 1, send() {}, close: (code: number) => closed.push(code) };
    ctx.app.deps.hub.add(u.id, fakeSocket as never);
    const sus = await post('/api/master/update-user-status', { userId: u.id, status: 'suspended' }, m.cookie);
    expect(sus.statusCode).toBe(200);
    expect(closed).toEqual([4003]);
    expect((await get('/api/user-profile', u.cookie)).statusCode).toBe(401);

    const audit = await auditRows();
    expect(audit.map((a) => [a.action, a.target_id, a.before_json, a.after_json])).toEqual([
      ['user.status', u.id, '{"status":"pending"}', '{"status":"approved"}'],
      ['user.status', u.id, '{"status":"approved"}', '{"status":"suspended"}'],
    ]);
  });

  it("a suspension ends the account's sessions for good: reinstated, the cookies from before it stay signed out (a stolen one too)", async () => {
    const m = await asMaster(ctx);
    const u = await makeUser(ctx, { status: 'approved' });
    expect((await get('/api/user-profile', u.cookie)).statusCode).toBe(200);
    expect((await post('/api/master/update-user-status', { userId: u.id, status: 'suspended' }, m.cookie)).statusCode).toBe(200);
    expect((await post('/api/master/update-user-status', { userId: u.id, status: 'approved' }, m.cookie)).statusCode).toBe(200);
    expect((await get('/api/user-profile', u.cookie)).statusCode).toBe(401);
    const again = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password: u.password } });
    expect(again.statusCode).toBe(200);
  });

  it('a master cannot suspend themselves, so an active master always remains', async () => {
    const m = await asMaster(ctx);
    const self = await post('/api/master/update-user-status', { userId: m.id, status: 'suspended' }, m.cookie);
    expect(self.statusCode).toBe(409);
    expect(self.json()).toEqual({ code: 'master.cannot_suspend_self', message: 'You cannot suspend yourself.' });
    expect(await statusOf(m.id)).toBe('approved');
    const m2 = await asMaster(ctx);
    expect((await post('/api/master/update-user-status', { userId: m2.id, status: 'suspended' }, m.cookie)).statusCode).toBe(200);
    expect(await statusOf(m2.id)).toBe('suspended');
    // With m2 suspended, m is the only active master: m2 cannot come back to act against m, and m cannot demote themselves.
    const demote = await post('/api/master/update-user-roles', { userId: m.id, roles: ['ADMIN_USER'] }, m.cookie);
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('master.cannot_remove_own_master');
    expect((await post('/api/master/update-user-status', { userId: m.id, status: 'suspended' }, m2.cookie)).statusCode).toBe(401);
    expect(await rolesOf(m.id)).toContain('MASTER_USER');
  });

  it('refuses bad input naming the field, unknown users with 404, and changes nothing', async () => {
    const m = await asMaster(ctx);
    const u = await makeUser(ctx);
    const cases = [
      [{ userId: u.id, status: 'banned' }, 400, 'validation.invalid', /status/],
      [{ userId: u.id }, 400, 'validation.required', /status/],
      [{ status: 'approved' }, 400, 'validation.required', /userId/],
      [{ userId: 'nobody', status: 'approved' }, 404, 'master.user_not_found', /not found/i],
    ] as const;
    for (const [payload, status, code, msg] of cases) {
      const res = await post('/api/master/update-user-status', payload, m.cookie);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().code, JSON.stringify(payload)).toBe(code);
      expect(res.json().message).toMatch(msg);
    }
    expect(await statusOf(u.id)).toBe('pending');
    expect(await auditRows()).toEqual([]);
  });
});

describe('a change that changes nothing, and a master demoted meanwhile', () => {
  it('setting the status or roles a user already has answers the user, writes no audit entry, and the transparency report does not count it again', async () => {
    const m = await asMaster(ctx);
    const u = await makeUser(ctx, { status: 'approved' });
    const set = (status: string) => post('/api/master/update-user-status', { userId: u.id, status }, m.cookie);
    expect((await set('suspended')).statusCode).toBe(200);
    ctx.clock.advance(10 * 86_400_000); // days later, again
    const again = await set('suspended');
    expect([again.statusCode, again.json().user.status]).toEqual([200, 'suspended']);
    const same = await post('/api/master/update-user-roles', { userId: u.id, roles: [] }, m.cookie);
    expect([same.statusCode, same.json().user.roles]).toEqual([200, ['PROVIDER_USER']]);
    expect((await auditRows()).map((r) => r.action)).toEqual(['user.status']);
    const months = (await ctx.app.inject({ method: 'GET', url: '/api/transparency' })).json().months as { accountsSuspended: number }[];
    expect(months.reduce((n, x) => n + x.accountsSuspended, 0)).toBe(1);
  });

  it('the transparency report does not count a recorded suspended → suspended entry (written before no-op changes went unaudited)', async () => {
    const m = await asMaster(ctx);
    const u = await makeUser(ctx, { status: 'suspended' });
    await ctx.app.deps.db
      .insertInto('audit_log')
      .values({
        actor_id: m.id,
        actor_email: m.email,
        action: 'user.status',
        target_type: 'user',
        target_id: u.id,
        before_json: JSON.stringify({ status: 'suspended' }),
        after_json: JSON.stringify({ status: 'suspended' }),
        at: ctx.clock.now().toISOString(),
      })
      .execute();
    const months = (await ctx.app.inject({ method: 'GET', url: '/api/transparency' })).json().months as { accountsSuspended: number }[];
    expect(months.reduce((n, x) => n + x.accountsSuspended, 0)).toBe(0);
  });

  it('a master demoted by another cannot, in a request already under way, change a third account', async () => {
    const a = await asMaster(ctx);
    const b = await asMaster(ctx);
    const c = await asMaster(ctx);
    const [r1, r2] = await Promise.all([
      post('/api/master/update-user-roles', { userId: b.id, roles: [] }, a.cookie),
      post('/api/master/update-user-roles', { userId: c.id, roles: [] }, b.cookie),
    ]);
    expect(r1.statusCode, r1.body).toBe(200);
    // Both passed the session check before either committed: B's change runs with what is true now.
    expect([r2.statusCode, r2.json().code]).toEqual([403, 'auth.forbidden']);
    expect(await rolesOf(c.id)).toEqual(['ADMIN_USER', 'MASTER_USER', 'PROVIDER_USER']);
    const d = await asMaster(ctx);
    const [r3, r4] = await Promise.all([
      post('/api/master/update-user-status', { userId: d.id, status: 'suspended' }, a.cookie),
      post('/api/master/update-user-status', { userId: c.id, status: 'suspended' }, d.cookie),
    ]);
    expect(r3.statusCode, r3.body).toBe(200);
    expect(r4.statusCode).toBe(401); // suspended meanwhile: the session has ended
    expect(await statusOf(c.id)).toBe('approved');
  });
});
