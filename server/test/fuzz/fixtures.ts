import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { makeUser, type TestUser } from '../harness.ts';
import { postToLedger } from '../../modules/wallets/ledger.service.ts';
import { goodFields } from '../../modules/ads/ads.testkit.ts';
import { runJob } from '../../modules/cron/cron.service.ts';
import { jobReport } from '../../core/report.ts';
import { buildMultipart } from './multipart.ts';
import type { World } from './world.ts';

// The real rows a working request names: ads of the provider in each state, a funded wallet, a
// promo code, a report, a cron run, a user for master routes, an e-mail change token. Each is
// made through the API (or the service a job would call) and made again when a request used it
// up; checks read the database directly.

/** A value kept across requests and made again when a request used it up (an ad paid, a token confirmed). */
class Fixture<T> {
  private value: T | undefined;
  private readonly make: () => Promise<T>;
  private readonly valid: (v: T) => boolean;
  constructor(make: () => Promise<T>, valid: (v: T) => boolean) {
    this.make = make;
    this.valid = valid;
  }
  async get(): Promise<T> {
    if (this.value === undefined || !this.valid(this.value)) this.value = await this.make();
    return this.value;
  }
}

export interface Place {
  stateId: string;
  cityId: string;
  stateSlug: string;
  citySlug: string;
}

export class Fixtures {
  private readonly w: World;
  private readonly fixtures = new Map<string, Fixture<unknown>>();
  constructor(w: World) {
    this.w = w;
  }

  private fixture<T>(key: string, make: () => Promise<T>, valid: (v: T) => boolean): Promise<T> {
    let f = this.fixtures.get(key) as Fixture<T> | undefined;
    if (!f) {
      f = new Fixture(make, valid);
      this.fixtures.set(key, f as Fixture<unknown>);
    }
    return f.get();
  }

  private expectStatus(res: LightMyRequestResponse, status: number, what: string): void {
    if (res.statusCode !== status) throw new Error(`fuzz fixture: ${what} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  }

  /** The most populous city of a state. */
  place(stateId: string, nth = 0): Place {
    return this.w.sqlite
      .prepare(
        `SELECT c.id AS cityId, c.slug AS citySlug, s.id AS stateId, s.slug AS stateSlug FROM cities c JOIN states s ON s.id = c.state_id
         WHERE c.state_id = ? ORDER BY c.population DESC LIMIT 1 OFFSET ?`,
      )
      .get(stateId, nth) as Place;
  }

  adFields(place: Place): Record<string, string> {
    return goodFields(place);
  }

  private adRow(id: string): { status: string; visible: number; owner: string; online: number; photos: string } | undefined {
    return this.w.sqlite.prepare('SELECT status, visible, owner_id AS owner, online, photos_json AS photos FROM ads WHERE id = ?').get(id) as never;
  }

  private async postAd(owner: TestUser): Promise<string> {
    const fields = this.adFields(this.place('ny'));
    const { payload, contentType } = buildMultipart([
      ...Object.entries(fields).map(([name, data]) => ({ name, data })),
      { name: 'photos', filename: 'photo.jpg', contentType: 'image/jpeg', data: this.w.images.jpeg },
    ]);
    const res = await this.w.inject({ method: 'POST', url: '/api/post-ad', headers: { cookie: owner.cookie, 'content-type': contentType }, payload });
    this.expectStatus(res, 201, 'POST /api/post-ad');
    return res.json().ad.id as string;
  }

  /** The owner's USD wallet, with money enough for every payment a run makes. */
  async usdWallet(owner: TestUser): Promise<string> {
    const w = this.w.sqlite.prepare("SELECT id, balance_cents AS balance FROM wallets WHERE user_id = ? AND wallet_type = 'USD'").get(owner.id) as {
      id: string;
      balance: number;
    };
    if (w.balance < 100_000) {
      const at = this.w.ctx.clock.now().toISOString();
      await this.w.ctx.app.deps.db.transaction().execute((trx) =>
        postToLedger(trx, {
          walletId: w.id,
          amountCents: 10_000_000,
          kind: 'adjustment',
          reference: 'fuzz',
          idempotencyKey: `fuzz-fund-${this.w.next()}-${w.id}`,
          at,
        }),
      );
    }
    return w.id;
  }

  private async payAd(owner: TestUser, adId: string): Promise<void> {
    const walletId = await this.usdWallet(owner);
    const res = await this.w.inject({ method: 'PUT', url: `/api/ad-payment-in-cart/${adId}`, headers: { cookie: owner.cookie }, payload: { walletId } });
    this.expectStatus(res, 200, 'PUT /api/ad-payment-in-cart');
  }

  /**
   * The admin who approves the fixtures' ads: one that never posts. The fuzzed admin posts ads with
   * the fixtures' photo and phone, which links it to their owner, whose ads it may then not review.
   */
  private reviewer: TestUser | undefined;

  private async approveAd(adId: string): Promise<void> {
    const admin = (this.reviewer ??= await makeUser(this.w.ctx, { roles: ['ADMIN_USER'], status: 'approved' }));
    const res = await this.w.inject({
      method: 'POST',
      url: '/api/admin/approve-pending-ads',
      headers: { cookie: admin.cookie },
      payload: { adIds: [adId], decision: 'approve' },
    });
    this.expectStatus(res, 200, 'POST /api/admin/approve-pending-ads');
  }

  /** An ad of `owner` in the given state, kept under `key`; made again when a request changed it. */
  async ad(key: string, ownerKey: string, state: 'unpaid' | 'in_review' | 'live'): Promise<string> {
    const owner = await this.w.actor(ownerKey);
    return this.fixture(
      `ad:${key}`,
      async () => {
        const id = await this.postAd(owner);
        if (state !== 'unpaid') await this.payAd(owner, id);
        if (state === 'live') await this.approveAd(id);
        return id;
      },
      (id) => {
        const r = this.adRow(id);
        if (!r || r.owner !== owner.id) return false;
        if (state === 'live') return r.status === 'approved' && r.visible === 1 && r.online === 1;
        return r.status === state;
      },
    );
  }

  /** A stored photo of a live ad, relative to the uploads root (what GET /uploads/* serves). */
  async uploadPath(): Promise<string> {
    const adId = await this.ad('photo', 'provider', 'live');
    const rel = (JSON.parse(this.adRow(adId)!.photos) as (string | { path?: string; url?: string })[])
      .map((p) => (typeof p === 'string' ? p : (p.path ?? p.url ?? '')))[0]
      .replace(/^\/?uploads\//, '');
    if (!fs.existsSync(path.join(this.w.ctx.config.dataDir, 'uploads', rel))) throw new Error(`fuzz fixture: photo ${rel} is not on disk`);
    return rel;
  }

  async promoCode(key: string): Promise<{ id: string; code: string }> {
    return this.fixture(
      `promo:${key}`,
      async () => {
        const admin = await this.w.actor('admin');
        const code = `FUZZ${this.w.next()}X${key.toUpperCase().replace(/[^A-Z0-9]/g, '')}`.slice(0, 30);
        const res = await this.w.inject({
          method: 'POST',
          url: '/api/admin/set-promo-code-by-id',
          headers: { cookie: admin.cookie },
          payload: { code, amountCents: 100, maxUses: 1_000_000, active: true },
        });
        this.expectStatus(res, 201, 'POST /api/admin/set-promo-code-by-id');
        return { id: res.json().promoCode.id as string, code: res.json().promoCode.code as string };
      },
      (p) => {
        const r = this.w.sqlite.prepare('SELECT active, uses, max_uses AS maxUses, expires_at AS expiresAt, code FROM promo_codes WHERE id = ?').get(p.id) as
          { active: number; uses: number; maxUses: number; expiresAt: string | null; code: string } | undefined;
        return !!r && r.active === 1 && r.uses < r.maxUses - 10 && r.expiresAt === null && r.code === p.code;
      },
    );
  }

  pricingId(): string {
    return (this.w.sqlite.prepare("SELECT id FROM pricing WHERE kind = 'ad' ORDER BY listing_type LIMIT 1").get() as { id: string }).id;
  }

  async reportId(): Promise<string> {
    return this.fixture(
      'report',
      async () => {
        const res = await this.w.inject({
          method: 'POST',
          url: '/api/reports',
          payload: { kind: 'contact', message: 'A question about an advert, sent by the fuzzer.', contact: 'fuzz@example.com' },
        });
        this.expectStatus(res, 201, 'POST /api/reports');
        return res.json().id as string;
      },
      (id) => !!this.w.sqlite.prepare('SELECT 1 FROM reports WHERE id = ?').get(id),
    );
  }

  async cronRunId(): Promise<number> {
    return this.fixture(
      'cron',
      async () => (await runJob(this.w.ctx.app.deps, { name: 'fuzz-noop', schedule: '0 0 1 1 *', run: async () => jobReport('fuzz', 'test.done') })).id,
      (id) => !!this.w.sqlite.prepare('SELECT 1 FROM cron_runs WHERE id = ?').get(id),
    );
  }

  /** A user master routes may change at will. */
  async victimId(): Promise<string> {
    return this.fixture(
      'victim',
      async () => (await makeUser(this.w.ctx, { status: 'pending', nickname: `fz_victim_${this.w.next()}` })).id,
      (id) => !!this.w.sqlite.prepare('SELECT 1 FROM users WHERE id = ? AND deleted_at IS NULL').get(id),
    );
  }

  /** An unused password-reset token of a user of its own (read from the mail the app sent). */
  async resetToken(): Promise<string> {
    return this.fixture(
      'reset-token',
      async () => {
        const user = await makeUser(this.w.ctx, { status: 'approved', nickname: `fz_reset_${this.w.next()}` });
        const res = await this.w.inject({ method: 'POST', url: '/api/password-reset-request', payload: { email: user.email } });
        this.expectStatus(res, 202, 'POST /api/password-reset-request');
        const mail = [...this.w.ctx.mailer.sent].reverse().find((m) => m.to === user.email);
        const token = /token=([^\s&]+)/.exec(mail?.text ?? '')?.[1];
        if (!token) throw new Error('fuzz fixture: no link in the password reset mail');
        return decodeURIComponent(token);
      },
      (token) => {
        const r = this.w.sqlite
          .prepare('SELECT used_at AS u, expires_at AS e FROM password_resets WHERE token_hash = ?')
          .get(createHash('sha256').update(token).digest('hex')) as { u: string | null; e: string } | undefined;
        return !!r && r.u === null && r.e > this.w.ctx.clock.now().toISOString();
      },
    );
  }

  /** The token of an e-mail change waiting for confirmation (read from the mail the app sent). */
  async emailToken(): Promise<string> {
    return this.fixture(
      'email-token',
      async () => {
        const user = await makeUser(this.w.ctx, { status: 'approved', nickname: `fz_mail_${this.w.next()}` });
        const newEmail = `fz-new-${this.w.next()}-${Date.now().toString(36)}@example.com`;
        const res = await this.w.inject({
          method: 'POST',
          url: '/api/email-reset',
          headers: { cookie: user.cookie },
          payload: { newEmail, password: user.password },
        });
        this.expectStatus(res, 200, 'POST /api/email-reset');
        const mail = [...this.w.ctx.mailer.sent].reverse().find((m) => m.to === newEmail);
        const token = /token=([^\s&]+)/.exec(mail?.text ?? '')?.[1];
        if (!token) throw new Error('fuzz fixture: no confirmation link in the e-mail change mail');
        return decodeURIComponent(token);
      },
      (token) => {
        const r = this.w.sqlite
          .prepare('SELECT confirmed_at AS c, created_at AS at FROM email_changes WHERE token_hash = ?')
          .get(createHash('sha256').update(token).digest('hex')) as { c: string | null; at: string } | undefined;
        return !!r && r.c === null && this.w.ctx.clock.now().getTime() - Date.parse(r.at) < 5 * 86_400_000;
      },
    );
  }
}
