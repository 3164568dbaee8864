import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../app.ts';
import type { ManualClock } from '../../core/clock.ts';
import type { Db } from '../../core/db.ts';
import { postToLedger } from '../../modules/wallets/ledger.service.ts';
import { DAY_MS, step, type ListingType, type MCode, type Op, type Prediction, type World } from './model.ts';
import { adminOf, httpCall, isoOrNull, send, type Answer, type HttpCall } from './http.ts';
import { learnPromoWallets } from './views.ts';

// The system under test for the ledger property test: building a world (users, an admin, prices,
// promo codes) through the API, and performing what is not a plain request (ledger credits,
// moving the clock, posting an ad with a real photo).

export interface CodeSpec {
  amountCents: number;
  maxUses: number;
  /** ms after creation; null never expires. */
  expiresIn: number | null;
  active: boolean;
}

let nameSeq = 0;
const PASSWORD = 'correct horse battery';

/** The system side of a world: the app, its clock, and how to post an ad (multipart, real photo). */
export class Sut {
  readonly app: App;
  readonly clock: ManualClock;
  private readonly photo: Buffer;
  private place: { stateId: string; cityId: string } | null = null;
  private emails: string[] = [];
  private loggedInAt = 0;

  constructor(app: App, clock: ManualClock, photo: Buffer) {
    this.app = app;
    this.clock = clock;
    this.photo = photo;
  }

  get db(): Db {
    return this.app.deps.db;
  }

  private async register(): Promise<{ id: string; email: string; cookie: string }> {
    const n = ++nameSeq;
    const email = `prop${n}-${process.pid}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const res = await this.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'sec-fetch-site': 'same-origin' },
      payload: { email, password: PASSWORD, nickname: `prop_${process.pid}_${n}` },
    });
    if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
    return { id: res.json().id, email, cookie: sessionCookie(res) };
  }

  /** `providers` ordinary users and one admin (the last user); prices as the system has them now. */
  async newWorld(providers: number, codes: CodeSpec[]): Promise<World> {
    // A new hour for every world: the sign-up limits (per IP, per window) never carry over from
    // earlier worlds, however many runs fast-check makes while it shrinks a failure.
    this.clock.advance(60 * 60_000);
    const now = this.clock.now().getTime();
    const w: World = { now, users: [], codes: [], ads: [], prices: {}, ledgerRows: 0, limiter: {} };
    this.emails = [];
    for (let i = 0; i <= providers; i++) {
      const r = await this.register();
      this.emails.push(r.email);
      const staff = i === providers;
      if (staff) await this.db.insertInto('user_roles').values({ user_id: r.id, role: 'ADMIN_USER' }).execute();
      await this.db.updateTable('users').set({ status: 'approved' }).where('id', '=', r.id).execute();
      const wallets = await send(this.app, { method: 'GET', url: '/api/all-wallets-by-user', cookie: r.cookie });
      const usd = (wallets.body as { wallets: { id: string; walletType: string }[] }).wallets.find((x) => x.walletType === 'USD')!;
      w.users.push({ id: r.id, cookie: r.cookie, staff, usdWalletId: usd.id, promoWalletId: null, promoExists: false, usd: 0, promo: 0 });
    }
    this.loggedInAt = now;
    const admin = w.users[providers];
    const pricing = await send(this.app, { method: 'GET', url: '/api/admin/get-all-pricing', cookie: admin.cookie });
    for (const p of (pricing.body as { pricing: { id: string; kind: string; listingType: string; priceCents: number; durationDays: number | null }[] })
      .pricing) {
      w.prices[`${p.kind}:${p.listingType}`] = { id: p.id, priceCents: p.priceCents, durationDays: p.durationDays };
    }
    for (const spec of codes) {
      const code = `P${(++nameSeq).toString(36).toUpperCase()}-${process.pid.toString(36).toUpperCase()}-${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
      const expiresAt = spec.expiresIn === null ? null : now + spec.expiresIn;
      const res = await send(this.app, {
        method: 'POST',
        url: '/api/admin/set-promo-code-by-id',
        cookie: admin.cookie,
        payload: { code, amountCents: spec.amountCents, maxUses: spec.maxUses, expiresAt: isoOrNull(expiresAt), active: spec.active },
      });
      if (res.status !== 201) throw new Error(`promo code not created: ${res.status} ${JSON.stringify(res.body)}`);
      const c: MCode = {
        id: (res.body as { promoCode: { id: string } }).promoCode.id,
        code,
        amountCents: spec.amountCents,
        maxUses: spec.maxUses,
        uses: 0,
        expiresAt,
        active: spec.active,
        redeemedBy: [],
      };
      w.codes.push(c);
    }
    return w;
  }

  /** Puts every price back to the seed's ($15.00 for 30 days per ad, $3.00 per bump), so that each world starts alike. */
  async resetPrices(w: World): Promise<void> {
    for (const [key, p] of Object.entries(w.prices)) {
      const ad = key.startsWith('ad:');
      const payload = { id: p.id, priceCents: ad ? 1500 : 300, ...(ad ? { durationDays: 30 } : {}) };
      const res = await send(this.app, { method: 'POST', url: '/api/admin/set-price-by-id', cookie: w.users[adminOf(w)].cookie, payload });
      if (res.status !== 200) throw new Error(`set-price failed: ${res.status}`);
      p.priceCents = payload.priceCents;
      p.durationDays = ad ? 30 : null;
    }
  }

  /** Sets an ad duration for a listing type (short durations let ads expire within a run). */
  async setAdDuration(w: World, lt: ListingType, days: number): Promise<void> {
    const p = w.prices[`ad:${lt}`];
    const res = await send(this.app, {
      method: 'POST',
      url: '/api/admin/set-price-by-id',
      cookie: w.users[adminOf(w)].cookie,
      payload: { id: p.id, priceCents: p.priceCents, durationDays: days },
    });
    if (res.status !== 200) throw new Error(`set-price failed: ${res.status}`);
    p.durationDays = days;
  }

  /**
   * Performs op on the system. The caller has already asked the model (step) for the prediction on
   * w; w is the model AFTER the step (ids are the same before and after, except a new ad's).
   */
  async perform(before: HttpCall | null, w: World, op: Op): Promise<Answer> {
    if (before) return send(this.app, before);
    switch (op.kind) {
      case 'fund':
        await this.db.transaction().execute((trx) =>
          postToLedger(trx, {
            walletId: w.users[op.user].usdWalletId,
            amountCents: op.cents,
            kind: 'adjustment',
            reference: 'property-test',
            idempotencyKey: `prop-fund-${++nameSeq}-${process.pid}`,
            at: this.clock.now().toISOString(),
          }),
        );
        return { status: 200, body: null };
      case 'advance':
        this.clock.advance(op.ms);
        // Sessions last 30 days: sign everyone in again now and then, as people do.
        if (this.clock.now().getTime() - this.loggedInAt > 10 * DAY_MS) await this.signInAgain(w);
        return { status: 200, body: null };
      case 'postAd': {
        const res = await this.postAd(w, op.user, op.listingType);
        if (res.status === 201) w.ads[w.ads.length - 1].id = (res.body as { ad: { id: string } }).ad.id;
        return res;
      }
      default:
        throw new Error(`sut: no request for ${op.kind}`);
    }
  }

  private async signInAgain(w: World): Promise<void> {
    for (let i = 0; i < w.users.length; i++) {
      const res = await this.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'sec-fetch-site': 'same-origin' },
        payload: { email: this.emails[i], password: PASSWORD },
      });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      w.users[i].cookie = sessionCookie(res);
    }
    this.loggedInAt = this.clock.now().getTime();
  }

  private async postAd(w: World, user: number, lt: ListingType): Promise<Answer> {
    this.place ??= await this.db
      .selectFrom('cities')
      .select(['id as cityId', 'state_id as stateId'])
      .where('state_id', '=', 'ny')
      .orderBy('population', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const fd = new FormData();
    const fields: Record<string, string> = {
      listingType: lt,
      title: 'Elegant companion downtown',
      description: 'Friendly, discreet and punctual. Dinner dates and travel, by appointment only.',
      age: '27',
      stateId: this.place.stateId,
      cityId: this.place.cityId,
      // A number of each user's own: a staff member's ad sharing a provider's phone would link them, and they could not review that provider's ads.
      phone: `(212) 555-${String(100 + user).padStart(4, '0')}`,
    };
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    fd.append('photos', new Blob([new Uint8Array(this.photo)], { type: 'image/jpeg' }), 'photo.jpg');
    const res = await this.app.inject({
      method: 'POST',
      url: '/api/post-ad',
      headers: { cookie: w.users[user].cookie, 'sec-fetch-site': 'same-origin' },
      payload: fd,
    });
    return { status: res.statusCode, body: res.json() };
  }
}

function sessionCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'XG.TOKEN');
  if (!c) throw new Error(`no session cookie: ${res.statusCode} ${res.body}`);
  return `XG.TOKEN=${c.value}`;
}

/** Predicts, performs and returns both, for one operation done alone (the sequential part). */
export async function runOne(sut: Sut, w: World, op: Op): Promise<{ prediction: Prediction; answer: Answer }> {
  const call = httpCall(w, op);
  const prediction = step(w, op); // decided before the system is asked
  const answer = await sut.perform(call, w, op);
  await learnPromoWallets(sut.db, w);
  return { prediction, answer };
}
