import sharp from 'sharp';
import { asAdmin, asMaster, cookieOf, makeUser, type TestContext, type TestUser } from '../harness.ts';
import { postToLedger } from '../../modules/wallets/ledger.service.ts';
import { placeIn } from '../../modules/ads/ads.testkit.ts';
import { PolicyObjects } from './policies.ts';
import type { Actor, ObjectKind, ObjectRef, Owner, RowContext } from './vocabulary.ts';

// The authorization matrix's fixture: real users and real objects, built once per test file
// through the API (registering, posting, paying, approving, reporting, suspending) and, where the
// API has no way in (money, a cron run, a personal promo code), through the database. Rows act on it; refresh() puts back whatever an allowed
// request changed, so every actor of every row meets the same world.

type Account = { id: string; email: string; password: string; cookie: string; tokenVersion: number; status: string; roles: string[] };
type Row = Record<string, unknown>;
/** A row of a plain table a staff row may change, put back as it was by refresh(). */
type Kept = { table: string; key: string; id: string | number; row: Row };

const OWNED: Record<Owner, ObjectKind[]> = {
  // In the order they are built: wallets pay for ads, a report is about the live ad.
  provider: ['usdWallet', 'promoWallet', 'cartAd', 'reviewAd', 'liveAd', 'report', 'personalCode', 'invoice'],
  otherProvider: ['usdWallet', 'promoWallet', 'cartAd', 'reviewAd', 'liveAd', 'report', 'personalCode', 'invoice'],
  pendingProvider: ['usdWallet', 'cartAd', 'liveAd'],
  suspendedProvider: ['usdWallet', 'liveAd'], // built before the suspension
};
export const ownsKind = (owner: Owner, kind: ObjectKind) => OWNED[owner].includes(kind);
export const ownerOf = (ref: ObjectRef) => ref.split('.')[0] as Owner;
/** provider ↔ otherProvider, for mirrored runs. */
export const mirrorOwner = (o: Owner): Owner => (o === 'provider' ? 'otherProvider' : o === 'otherProvider' ? 'provider' : o);

const WALLET_FLOOR = 50_000;

export class Fixture {
  readonly ctx: TestContext;
  private readonly accounts = new Map<Exclude<Actor, 'guest'>, Account>();
  /** Owned objects: id and, for all but wallets, the database row they were built with. */
  private readonly objects = new Map<ObjectRef, { id: string; row: string | null }>();
  private readonly kept: Kept[] = [];
  private readonly shapes: PolicyObjects;
  private applicant!: { id: string; row: string };
  private world!: Omit<RowContext['world'], 'applicantId' | 'photoUrl'>;
  private photo!: Buffer;
  private avatar!: Buffer;
  private seq = 0;

  private constructor(ctx: TestContext) {
    this.ctx = ctx;
    this.shapes = new PolicyObjects(ctx.app.deps.database.sqlite, ctx.clock);
  }

  static async build(ctx: TestContext): Promise<Fixture> {
    const f = new Fixture(ctx);
    f.photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
      .jpeg()
      .toBuffer();
    f.avatar = await sharp({ create: { width: 30, height: 20, channels: 4, background: '#0a0' } })
      .png()
      .toBuffer();
    const db = ctx.app.deps.db;
    const city = (stateId: string, nth: number) => placeIn(ctx, stateId, nth);
    const ny = await city('ny', 0);
    const otherNy = await city('ny', 1);
    const quiet = await city('wy', 3); // no fixture ad lives there: staff may disable it
    const login = await makeUser(ctx, { status: 'approved' });

    await f.account('admin', await asAdmin(ctx));
    await f.account('master', await asMaster(ctx));
    await f.account('provider', await makeUser(ctx, { status: 'approved' }));
    await f.account('otherProvider', await makeUser(ctx, { status: 'approved' }));
    await f.account('pendingProvider', await makeUser(ctx)); // registration leaves a user pending
    await f.account('suspendedProvider', await makeUser(ctx, { status: 'approved' })); // suspended once its ad is live

    const admin = f.accounts.get('admin')!;
    // The code every actor redeems comes from a staff member who is none of them: its author may not redeem it.
    const issuer = await asAdmin(ctx);
    const promo = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-promo-code-by-id',
      headers: { cookie: issuer.cookie },
      payload: { code: 'MATRIX-CREDIT', amountCents: 500, maxUses: 1_000_000, active: true },
    });
    const staffPromo = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-promo-code-by-id',
      headers: { cookie: admin.cookie },
      payload: { code: 'MATRIX-STAFF', amountCents: 700, maxUses: 10, active: true },
    });
    if (promo.statusCode !== 201 || staffPromo.statusCode !== 201) throw new Error(`promo codes: ${promo.body} ${staffPromo.body}`);
    const bumpPrice = await db
      .selectFrom('pricing')
      .select('id')
      .where('kind', '=', 'bump')
      .where('listing_type', '=', 'shemale_esc')
      .executeTakeFirstOrThrow();
    const at = ctx.clock.now().toISOString();
    const run = await db
      .insertInto('cron_runs')
      .values({ name: 'expire-ads', started_at: at, finished_at: at, outcome: 'ok', message: 'matrix' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const check = await db
      .insertInto('health_checks')
      .values({ name: 'disk', status: 'ok', message: 'matrix', duration_ms: 1, checked_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();

    f.world = {
      promoCode: 'MATRIX-CREDIT',
      staffPromoCodeId: staffPromo.json().promoCode.id,
      bumpPriceId: bumpPrice.id,
      cronRunId: run.id,
      healthCheckId: check.id,
      quietCity: { stateId: quiet.stateId, cityId: quiet.cityId },
      ny,
      otherNyCity: { stateId: otherNy.stateId, cityId: otherNy.cityId },
      loginEmail: login.email,
      loginPassword: login.password,
    };
    await f.keep('promo_codes', 'id', f.world.staffPromoCodeId);
    await f.keep('pricing', 'id', f.world.bumpPriceId);
    await f.keep('cron_runs', 'id', run.id);
    await f.keep('health_checks', 'id', check.id);
    await f.keep('cities', 'id', quiet.cityId);
    await f.keep('states', 'id', quiet.stateId);
    await f.newApplicant();

    for (const actor of ['admin', 'master', 'pendingProvider'] as const) await f.call(actor, 'POST', '/api/create-promo-wallet', {});
    await f.topUp();
    for (const owner of Object.keys(OWNED) as Owner[]) {
      for (const kind of OWNED[owner]) {
        await f.rebuild(`${owner}.${kind}`);
        if (kind.endsWith('Wallet')) await f.topUp();
      }
    }
    const suspended = f.accounts.get('suspendedProvider')!;
    await f.call('master', 'POST', '/api/master/update-user-status', { userId: suspended.id, status: 'suspended' });
    suspended.status = 'suspended';
    // The suspension hid the live ad: that is the row it is checked against.
    f.objects.set('suspendedProvider.liveAd', { id: f.id('suspendedProvider.liveAd'), row: await f.adRow(f.id('suspendedProvider.liveAd')) });
    return f;
  }

  // ---- actors ----

  private async account(actor: Exclude<Actor, 'guest'>, u: TestUser): Promise<void> {
    const row = await this.userRow(u.id);
    this.accounts.set(actor, { ...u, tokenVersion: row.token_version, status: row.status, roles: await this.rolesOf(u.id) });
  }

  private userRow(id: string) {
    return this.ctx.app.deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  private async rolesOf(id: string): Promise<string[]> {
    return (await this.ctx.app.deps.db.selectFrom('user_roles').select('role').where('user_id', '=', id).orderBy('role').execute()).map((r) => r.role);
  }

  cookie(actor: Actor): string | null {
    return actor === 'guest' ? null : this.accounts.get(actor)!.cookie;
  }

  userId(actor: Actor): string | null {
    return actor === 'guest' ? null : this.accounts.get(actor)!.id;
  }

  /** Puts every actor back as built: status and roles as they were, a live session for the live ones. */
  private async refreshActors(): Promise<void> {
    const db = this.ctx.app.deps.db;
    for (const [actor, a] of this.accounts) {
      const row = await this.userRow(a.id);
      if (row.deleted_at) throw new Error(`a row deleted the ${actor} actor: the matrix cannot rebuild it`);
      if (row.status !== a.status)
        await db
          .updateTable('users')
          .set({ status: a.status as 'approved' })
          .where('id', '=', a.id)
          .execute();
      if ((await this.rolesOf(a.id)).join() !== a.roles.join()) {
        await db.deleteFrom('user_roles').where('user_id', '=', a.id).execute();
        await db
          .insertInto('user_roles')
          .values(a.roles.map((role) => ({ user_id: a.id, role: role as 'PROVIDER_USER' })))
          .execute();
      }
      if (actor === 'suspendedProvider' || row.token_version === a.tokenVersion) continue;
      // A logout or a password change ended the session: sign in again, as the user would.
      const res = await this.ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: a.email, password: a.password } });
      if (res.statusCode !== 200) throw new Error(`${actor} cannot sign in again: ${res.statusCode} ${res.body}`);
      a.cookie = cookieOf(res);
      a.tokenVersion = (await this.userRow(a.id)).token_version;
    }
  }

  // ---- owned objects ----

  id(ref: ObjectRef): string {
    const o = this.objects.get(ref);
    if (!o) throw new Error(`the fixture has no ${ref}`);
    return o.id;
  }

  private async adRow(id: string): Promise<string | null> {
    const row = await this.ctx.app.deps.db.selectFrom('ads').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? JSON.stringify(row) : null;
  }

  private async reportRow(id: string): Promise<string | null> {
    const row = await this.ctx.app.deps.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? JSON.stringify(row) : null;
  }

  private async codeRow(code: string): Promise<string | null> {
    const row = await this.ctx.app.deps.db.selectFrom('promo_codes').selectAll().where('code', '=', code).executeTakeFirst();
    return row ? JSON.stringify(row) : null;
  }

  /** An invoice and its sandbox counterpart (a simulation changes the latter, its webhooks the former). */
  private async invoiceRow(id: string): Promise<string | null> {
    const db = this.ctx.app.deps.db;
    const row = await db.selectFrom('invoices').selectAll().where('btcpay_id', '=', id).executeTakeFirst();
    const sandbox = await db.selectFrom('sandbox_invoices').selectAll().where('id', '=', id).executeTakeFirst();
    // An invoice whose 30 minutes ran out (the clock moves on each refresh) is built anew.
    return row ? JSON.stringify({ row, sandbox, open: row.expires_at > this.ctx.clock.now().toISOString() }) : null;
  }

  /** The database row an object is checked against (null: a wallet, only kept funded). */
  private rowOf(kind: ObjectKind, id: string): Promise<string | null> | null {
    if (kind === 'report') return this.reportRow(id);
    if (kind === 'invoice') return this.invoiceRow(id);
    if (kind === 'personalCode') return this.codeRow(id);
    return kind.endsWith('Ad') ? this.adRow(id) : null;
  }

  private async call(actor: Actor, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object | FormData, expected = 200) {
    const cookie = this.cookie(actor);
    const res = await this.ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
    if (res.statusCode !== expected) throw new Error(`fixture: ${method} ${url} as ${actor}: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  private async postAd(owner: Owner): Promise<string> {
    const fd = new FormData();
    const fields = {
      listingType: 'female_esc',
      title: 'Elegant companion downtown',
      age: '27',
      phone: '(212) 555-0142',
      description: 'Friendly, discreet and punctual. Dinner dates and travel, by appointment only.',
      stateId: this.world.ny.stateId,
      cityId: this.world.ny.cityId,
    };
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    fd.append('photos', new Blob([new Uint8Array(this.photo)], { type: 'image/jpeg' }), 'photo.jpg');
    return (await this.call(owner, 'POST', '/api/post-ad', fd, 201)).ad.id;
  }

  private async paidAd(owner: Owner): Promise<string> {
    const id = await this.postAd(owner);
    await this.call(owner, 'PUT', `/api/ad-payment-in-cart/${id}`, { walletId: this.id(`${owner}.usdWallet`) });
    return id;
  }

  private async build(ref: ObjectRef): Promise<string> {
    const owner = ownerOf(ref);
    if (owner === 'suspendedProvider' && this.accounts.get(owner)!.status === 'suspended')
      throw new Error(`a request changed ${ref}, which the fixture cannot rebuild`);
    switch (ref.split('.')[1] as ObjectKind) {
      case 'usdWallet':
        return (await this.call(owner, 'GET', '/api/all-wallets-by-user')).wallets.find((w: { walletType: string }) => w.walletType === 'USD').id;
      case 'promoWallet':
        return (await this.call(owner, 'POST', '/api/create-promo-wallet', {})).wallet.id;
      case 'cartAd':
        return this.postAd(owner);
      case 'reviewAd':
        return this.paidAd(owner);
      case 'liveAd': {
        const id = await this.paidAd(owner);
        const res = await this.call('admin', 'POST', '/api/admin/approve-pending-ads', { adIds: [id], decision: 'approve' });
        if (res.updated !== 1) throw new Error(`fixture: approving ${ref} changed nothing`);
        return id;
      }
      case 'invoice': {
        const { invoiceId } = await this.call(owner, 'POST', '/api/create-btc-payment-invoice', { amount: '25.00' });
        // Its InvoiceCreated webhook is processed before the row is taken as the one to keep.
        await this.ctx.app.deps.services.payments.sandbox?.idle();
        await this.ctx.app.deps.services.payments.drain();
        return invoiceId;
      }
      case 'report':
        return (await this.call('guest', 'POST', `/api/report-ad/${this.id(`${owner}.liveAd`)}`, { message: `Matrix report about ${owner}'s ad.` }, 201)).id;
      case 'personalCode': {
        // A code only its owner may redeem, as the welcome code is. The API makes one per user, once
        // (GET /api/email-wallet-promo-code, a row of its own): the fixture writes its own.
        const at = this.ctx.clock.now().toISOString();
        const code = `OWN-${++this.seq}${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
        await this.ctx.app.deps.db
          .insertInto('promo_codes')
          .values({
            id: `matrixcode${this.seq}`,
            code,
            amount_cents: 2000,
            max_uses: 1,
            expires_at: null,
            active: 1,
            owner_user_id: this.accounts.get(owner)!.id,
            created_at: at,
            updated_at: at,
          })
          .execute();
        return code;
      }
    }
  }

  private async rebuild(ref: ObjectRef): Promise<void> {
    const id = await this.build(ref);
    const kind = ref.split('.')[1] as ObjectKind;
    this.objects.set(ref, { id, row: await this.rowOf(kind, id) });
  }

  /** Every wallet of every live actor holds money: a payment refused may not be refused for want of it. */
  private async topUp(): Promise<void> {
    const ids = [...this.accounts.values()].map((a) => a.id);
    const poor = await this.ctx.app.deps.db.selectFrom('wallets').select('id').where('user_id', 'in', ids).where('balance_cents', '<', WALLET_FLOOR).execute();
    const at = this.ctx.clock.now().toISOString();
    for (const { id } of poor) {
      await this.ctx.app.deps.db.transaction().execute((trx) =>
        postToLedger(trx, {
          walletId: id,
          amountCents: 2 * WALLET_FLOOR,
          kind: 'adjustment',
          reference: 'matrix',
          idempotencyKey: `matrix-fund-${++this.seq}-${id}`,
          at,
        }),
      );
    }
  }

  /** The acting user's own wallet of a type (every live actor has both). */
  private walletOf(userId: string, type: 'USD' | 'XG-PROMO-WALLET'): string {
    const sqlite = this.ctx.app.deps.database.sqlite;
    return sqlite.prepare('SELECT id FROM wallets WHERE user_id = ? AND wallet_type = ?').pluck().get(userId, type) as string;
  }

  // ---- rows staff act on ----

  private async keep(table: string, key: string, id: string | number): Promise<void> {
    this.kept.push({ table, key, id, row: this.ctx.app.deps.database.sqlite.prepare(`SELECT * FROM "${table}" WHERE "${key}" = ?`).get(id) as Row });
  }

  private async newApplicant(): Promise<void> {
    const u = await makeUser(this.ctx); // pending: what a master approves
    this.applicant = { id: u.id, row: JSON.stringify({ user: await this.userRow(u.id), roles: await this.rolesOf(u.id) }) };
  }

  /**
   * Before each request: a minute later (a bump's cooldown is over; a whole run moves the clock
   * about a day, far from any expiry), every actor live and as built, every object as built (an ad,
   * report or code that changed is built anew; a row staff changed is written back), every wallet
   * funded.
   */
  async refresh(): Promise<void> {
    // The sandbox's webhooks of an allowed simulation land after its answer: let them, first.
    await this.ctx.app.deps.services.payments.sandbox?.idle();
    await this.ctx.app.deps.services.payments.drain();
    this.ctx.clock.advance(61_000);
    await this.refreshActors();
    for (const [ref, o] of this.objects) {
      const kind = ref.split('.')[1] as ObjectKind;
      if (o.row !== null && (await this.rowOf(kind, o.id)) !== o.row) await this.rebuild(ref);
    }
    await this.topUp();
    const sqlite = this.ctx.app.deps.database.sqlite;
    for (const k of this.kept) {
      const now = sqlite.prepare(`SELECT * FROM "${k.table}" WHERE "${k.key}" = ?`).get(k.id);
      if (JSON.stringify(now) === JSON.stringify(k.row)) continue;
      const cols = Object.keys(k.row);
      if (now) sqlite.prepare(`UPDATE "${k.table}" SET ${cols.map((c) => `"${c}" = @${c}`).join(', ')} WHERE "${k.key}" = @${k.key}`).run(k.row);
      else sqlite.prepare(`INSERT INTO "${k.table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(k.row);
    }
    if (JSON.stringify({ user: await this.userRow(this.applicant.id), roles: await this.rolesOf(this.applicant.id) }) !== this.applicant.row) {
      await this.newApplicant();
    }
  }

  /** What a row's request is built from, for this actor; mirrored: provider and otherProvider trade objects. */
  context(actor: Actor, mirrored: boolean): RowContext {
    const a = actor === 'guest' ? null : this.accounts.get(actor)!;
    const resolve = (ref: ObjectRef): ObjectRef => (mirrored ? (`${mirrorOwner(ownerOf(ref))}.${ref.split('.')[1]}` as ObjectRef) : ref);
    const n = ++this.seq;
    return {
      id: (ref) => this.id(resolve(ref)),
      myWallet: (kind) =>
        a && actor !== 'suspendedProvider' ? this.walletOf(a.id, kind === 'usdWallet' ? 'USD' : 'XG-PROMO-WALLET') : this.id(resolve(`provider.${kind}`)),
      me: { actor, id: a?.id ?? null, email: a?.email ?? null, password: a?.password ?? null },
      world: {
        ...this.world,
        applicantId: this.applicant.id,
        photoUrl: (ref) => {
          const row = this.ctx.app.deps.database.sqlite.prepare('SELECT photos_json FROM ads WHERE id = ?').get(this.id(resolve(ref))) as {
            photos_json: string;
          };
          return `/uploads/${(JSON.parse(row.photos_json) as { path: string }[])[0].path}`;
        },
      },
      objects: this.shapes,
      unique: `${n}${Math.random().toString(36).slice(2, 6)}`,
      photo: this.photo,
      avatar: this.avatar,
    };
  }
}
