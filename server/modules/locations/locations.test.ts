import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const setStatus = (cookie: string, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-state-cities', headers: { cookie }, payload: payload as object });
const auditCount = async () =>
  Number(
    (
      await ctx.app.deps.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('public lists', () => {
  it('lists the 51 enabled states by name', async () => {
    const res = await get('/api/states-from-country');
    expect(res.statusCode).toBe(200);
    const { states } = res.json();
    expect(states).toHaveLength(51);
    expect(states.map((s: { name: string }) => s.name)).toEqual([...states.map((s: { name: string }) => s.name)].sort((a, b) => (a < b ? -1 : 1)));
    expect(states.find((s: { code: string }) => s.code === 'NY')).toEqual({
      id: 'ny',
      name: 'New York',
      code: 'NY',
      slug: 'new-york',
      countryCode: 'US',
      enabled: true,
    });
    expect(states.find((s: { code: string }) => s.code === 'DC').slug).toBe('district-of-columbia');
  });

  it("lists a state's cities largest first, by id, code or slug", async () => {
    const byId = await get('/api/cities-from-state/ny');
    expect(byId.statusCode).toBe(200);
    const { cities } = byId.json();
    expect(cities.length).toBeGreaterThan(900);
    expect(cities[0]).toMatchObject({ stateId: 'ny', name: 'New York City', slug: 'new-york-city', enabled: true });
    expect(Object.keys(cities[0]).sort()).toEqual(['enabled', 'id', 'latitude', 'longitude', 'name', 'population', 'slug', 'stateId']);
    for (let i = 1; i < cities.length; i++) expect(cities[i - 1].population).toBeGreaterThanOrEqual(cities[i].population);
    expect((await get('/api/cities-from-state/new-york')).json()).toEqual(byId.json());
    expect((await get('/api/cities-from-state/NY')).json()).toEqual(byId.json());
  });

  it('answers 404 for an unknown state and 400 for a bad isAll', async () => {
    const unknown = await get('/api/cities-from-state/atlantis');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'State not found.', code: 'locations.state_not_found' });
    const bad = await get('/api/states-from-country?isAll=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/isAll/);
    expect((await get('/api/cities-from-state/ny?isAll=maybe')).statusCode).toBe(400);
  });

  it('refuses isAll to guests (401) and providers (403), grants it to staff', async () => {
    const provider = await makeUser(ctx);
    const admin = await asAdmin(ctx);
    const master = await asMaster(ctx);
    for (const url of ['/api/states-from-country?isAll=true', '/api/cities-from-state/ny?isAll=true']) {
      expect((await get(url)).statusCode, url).toBe(401);
      const p = await get(url, provider.cookie);
      expect(p.statusCode, url).toBe(403);
      expect(p.json()).toEqual({ message: 'Only staff may list disabled locations.', code: 'locations.staff_only' });
      expect((await get(url, admin.cookie)).statusCode, url).toBe(200);
      expect((await get(url, master.cookie)).statusCode, url).toBe(200);
    }
    // isAll=false is the plain public list.
    expect((await get('/api/states-from-country?isAll=false')).statusCode).toBe(200);
  });
});

describe('admin: enabling and disabling', () => {
  it('hides a disabled state from the public, shows it to staff with isAll, and audits the change', async () => {
    const admin = await asAdmin(ctx);
    const res = await setStatus(admin.cookie, { stateId: 'new-york', enabled: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: 1 });

    const pub = (await get('/api/states-from-country')).json().states;
    expect(pub).toHaveLength(50);
    expect(pub.some((s: { id: string }) => s.id === 'ny')).toBe(false);
    expect((await get('/api/cities-from-state/ny')).statusCode).toBe(404);

    const all = (await get('/api/states-from-country?isAll=true', admin.cookie)).json().states;
    expect(all).toHaveLength(51);
    expect(all.find((s: { id: string }) => s.id === 'ny').enabled).toBe(false);
    expect((await get('/api/cities-from-state/ny?isAll=true', admin.cookie)).json().cities.length).toBeGreaterThan(900);

    const audit = await ctx.app.deps.db.selectFrom('audit_log').selectAll().execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, actor_email: admin.email, action: 'state.status', target_type: 'state', target_id: 'ny' });
    expect(JSON.parse(audit[0].before_json!)).toEqual({ enabled: true });
    expect(JSON.parse(audit[0].after_json!)).toEqual({ enabled: false });
    expect(audit[0].at).toBe(ctx.clock.now().toISOString());

    expect((await setStatus(admin.cookie, { stateId: 'ny', enabled: true })).statusCode).toBe(200);
    expect((await get('/api/states-from-country')).json().states).toHaveLength(51);
  });

  it('disables chosen cities of a state, audited one row per city', async () => {
    const master = await asMaster(ctx);
    const [first, second] = (await get('/api/cities-from-state/tx')).json().cities;
    const res = await setStatus(master.cookie, { stateId: 'tx', cityIds: [first.id, second.id, first.id], enabled: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });

    const pub = (await get('/api/cities-from-state/tx')).json().cities;
    expect(pub.some((c: { id: string }) => c.id === first.id || c.id === second.id)).toBe(false);
    const staff = (await get('/api/cities-from-state/texas?isAll=true', master.cookie)).json().cities;
    expect(staff.slice(0, 2).map((c: { id: string; enabled: boolean }) => [c.id, c.enabled])).toEqual([
      [first.id, false],
      [second.id, false],
    ]);

    const audit = await ctx.app.deps.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    expect(audit).toHaveLength(2);
    expect(new Set(audit.map((a) => a.target_id))).toEqual(new Set([first.id, second.id]));
    expect(audit.every((a) => a.action === 'city.status' && a.target_type === 'city' && JSON.parse(a.after_json!).enabled === false)).toBe(true);
  });

  it('refuses unknown states and cities of another state with 404, changing nothing', async () => {
    const admin = await asAdmin(ctx);
    const nyCity = (await get('/api/cities-from-state/ny')).json().cities[0];
    const txCity = (await get('/api/cities-from-state/tx')).json().cities[0];

    const unknownState = await setStatus(admin.cookie, { stateId: 'zz', enabled: false });
    expect(unknownState.statusCode).toBe(404);
    expect(unknownState.json()).toEqual({ message: 'State not found.', code: 'locations.state_not_found' });

    const foreign = await setStatus(admin.cookie, { stateId: 'tx', cityIds: [txCity.id, nyCity.id], enabled: false });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({
      message: `City not found in Texas: ${nyCity.id}.`,
      code: 'locations.cities_not_in_state',
      params: { state: 'Texas', cities: nyCity.id },
    });
    expect((await get('/api/cities-from-state/tx')).json().cities[0].id).toBe(txCity.id); // still enabled
    expect(await auditCount()).toBe(0);
  });

  it('refuses bad input with 400 naming the field, changing nothing', async () => {
    const admin = await asAdmin(ctx);
    const cases: [unknown, RegExp][] = [
      [{ stateId: 'ny' }, /enabled/],
      [{ stateId: 'ny', enabled: 'no' }, /enabled/],
      [{ enabled: false }, /stateId/],
      [{ stateId: '', enabled: false }, /stateId/],
      [{ stateId: 'ny', cityIds: [], enabled: false }, /cityIds/],
      [{ stateId: 'ny', cityIds: { all: true }, enabled: false }, /cityIds/],
      [{ stateId: 'ny', cityIds: [''], enabled: false }, /cityIds/],
    ];
    for (const [payload, msg] of cases) {
      const res = await setStatus(admin.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toMatch(msg);
    }
    expect((await get('/api/states-from-country')).json().states).toHaveLength(51);
    expect(await auditCount()).toBe(0);
  });

  it('is for staff only', async () => {
    const provider = await makeUser(ctx);
    expect((await setStatus(provider.cookie, { stateId: 'ny', enabled: false })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-state-cities', payload: { stateId: 'ny', enabled: false } })).statusCode).toBe(
      401,
    );
    expect((await get('/api/admin/get-cities-by-state?stateId=ny', provider.cookie)).statusCode).toBe(403);
    expect((await get('/api/states-from-country')).json().states).toHaveLength(51);
  });
});

describe('admin: cities by state', () => {
  it('pages through every city of a state, disabled ones included, and filters by name', async () => {
    const admin = await asAdmin(ctx);
    const nyCount = (await get('/api/cities-from-state/ny')).json().cities.length;
    const page1 = await get('/api/admin/get-cities-by-state?stateId=ny&pageSize=10', admin.cookie);
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ total: nyCount, page: 1, pageSize: 10 });
    expect(page1.json().cities).toHaveLength(10);
    expect(page1.json().cities[0].name).toBe('New York City');
    const page2 = (await get('/api/admin/get-cities-by-state?stateId=new-york&pageSize=10&page=2', admin.cookie)).json();
    expect(page2.cities[0].population).toBeLessThanOrEqual(page1.json().cities[9].population);
    expect(page2.cities.some((c: { id: string }) => page1.json().cities.some((d: { id: string }) => d.id === c.id))).toBe(false);

    await setStatus(admin.cookie, { stateId: 'ny', cityIds: [page1.json().cities[0].id], enabled: false });
    const after = (await get('/api/admin/get-cities-by-state?stateId=ny&pageSize=10', admin.cookie)).json();
    expect(after.total).toBe(nyCount);
    expect(after.cities[0]).toMatchObject({ name: 'New York City', enabled: false });

    const springfield = (await get('/api/admin/get-cities-by-state?stateId=il&query=springf', admin.cookie)).json();
    expect(springfield.total).toBeGreaterThanOrEqual(1);
    expect(springfield.cities.every((c: { name: string }) => /springf/i.test(c.name))).toBe(true);
    // LIKE wildcards in the query are taken literally.
    expect((await get('/api/admin/get-cities-by-state?stateId=il&query=%25', admin.cookie)).json().total).toBe(0);
  });

  it('refuses bad paging and unknown states', async () => {
    const admin = await asAdmin(ctx);
    for (const [url, field] of [
      ['/api/admin/get-cities-by-state', /stateId/],
      ['/api/admin/get-cities-by-state?stateId=ny&pageSize=101', /pageSize/],
      ['/api/admin/get-cities-by-state?stateId=ny&page=0', /page/],
      ['/api/admin/get-cities-by-state?stateId=ny&page=abc', /page/],
    ] as const) {
      const res = await get(url, admin.cookie);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toMatch(field);
    }
    expect((await get('/api/admin/get-cities-by-state?stateId=zz', admin.cookie)).statusCode).toBe(404);
  });
});
