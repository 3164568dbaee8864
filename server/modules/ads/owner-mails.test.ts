import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { decide, fundedUsd, liveAd, pay, placeIn, postAd, type Place } from './ads.testkit.ts';
import { formatUsd } from '../../../contract/amount.ts';
import type { MailLocale } from '../../core/mail-templates.ts';

// What an owner is told by e-mail when staff reject their ad (how much came back, to which wallet)
// or take their live ad down and put it back.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://xg.example' } });
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => {
  await ctx.close();
});

const speaks = (u: TestUser, locale: MailLocale) => ctx.app.deps.db.updateTable('users').set({ locale }).where('id', '=', u.id).execute();
const mailsTo = (u: TestUser, from = 0) => ctx.mailer.sent.slice(from).filter((m) => m.to === u.email);
const setStatus = (adIds: string[], status: 'approved' | 'disabled') =>
  ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-approved-ads', headers: { cookie: admin.cookie }, payload: { adIds, status } });

/** A promo wallet holding `cents`, credited through a promo code an admin made; returns its id. */
async function fundedPromo(u: TestUser, cents: number): Promise<string> {
  const made = await ctx.app.inject({
    method: 'POST',
    url: '/api/admin/set-promo-code-by-id',
    headers: { cookie: admin.cookie },
    payload: { code: 'SPRING-2026', amountCents: cents, maxUses: 10, active: true, expiresAt: null },
  });
  expect(made.statusCode, made.body).toBe(201);
  const redeemed = await ctx.app.inject({
    method: 'POST',
    url: '/api/add-promo-code-to-promo-wallet',
    headers: { cookie: u.cookie },
    payload: { code: 'SPRING-2026' },
  });
  expect(redeemed.statusCode, redeemed.body).toBe(200);
  return redeemed.json().wallet.id as string;
}

/** Posts and pays an ad from `walletId`, then rejects it; returns the price and the owner's rejection e-mail. */
async function rejectedPaidFrom(walletId: string, title: string) {
  const ad = await postAd(ctx, owner, ny, { title });
  const paid = await pay(ctx, owner, ad.id, walletId);
  expect(paid.statusCode, paid.body).toBe(200);
  const price = paid.json().ad.priceCents as number;
  expect((await decide(ctx, admin, [ad.id], 'reject', 'The photo is not of you.')).json()).toEqual({ updated: 1 });
  const mails = mailsTo(owner).filter((m) => m.subject.includes(title));
  expect(mails).toHaveLength(1);
  return { price, mail: mails[0] };
}

describe('the rejection e-mail', () => {
  it('says how much was refunded, to the USD wallet', async () => {
    const { price, mail } = await rejectedPaidFrom(await fundedUsd(ctx, owner, 1500), 'Ad that staff will reject');
    expect(price).toBeGreaterThan(0);
    expect(mail.text).toContain(`What you paid for it is back in your USD wallet: ${formatUsd(price, 'en')}.`);
    expect(mail.text).not.toMatch(/promo/i);
    expect(mail.html).toContain(formatUsd(price, 'en'));
  });

  it('names the promo wallet and writes the amount the owner’s way', async () => {
    await speaks(owner, 'pt');
    const { price, mail } = await rejectedPaidFrom(await fundedPromo(owner, 2000), 'Anúncio pago com crédito promocional');
    expect(mail.subject).toBe('Seu anúncio não foi aprovado: Anúncio pago com crédito promocional');
    expect(formatUsd(price, 'pt')).toMatch(/^US\$\s/);
    expect(mail.text).toContain(`O crédito promocional com que você o pagou voltou para sua carteira promocional: ${formatUsd(price, 'pt')}.`);
    expect(mail.text).not.toMatch(/carteira em USD/);
  });

  it('says nothing of a refund when the ad cost nothing', async () => {
    const pricing = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-all-pricing', headers: { cookie: admin.cookie } })).json().pricing as {
      id: string;
      kind: string;
      listingType: string;
    }[];
    for (const p of pricing.filter((p) => p.kind === 'ad')) {
      const set = await ctx.app.inject({
        method: 'POST',
        url: '/api/admin/set-price-by-id',
        headers: { cookie: admin.cookie },
        payload: { id: p.id, priceCents: 0 },
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    await speaks(owner, 'es');
    const { price, mail } = await rejectedPaidFrom(await fundedUsd(ctx, owner, 0), 'Anuncio gratuito que será rechazado');
    expect(price).toBe(0);
    expect(mail.text).toContain('no fue aprobado por este motivo: The photo is not of you.');
    expect(mail.text).toContain('Corrige el anuncio y envíalo de nuevo desde tu carrito.');
    expect(mail.text).not.toMatch(/billetera|pagaste|US\$/);
  });
});

describe('staff taking a live ad down and putting it back', () => {
  it('e-mails the owner once per change, in their language, with My ads and where to ask', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { title: 'Live ad that staff take down' });
    const before = ctx.mailer.sent.length;
    expect((await setStatus([ad.id], 'disabled')).json()).toEqual({ updated: 1 });
    const off = mailsTo(owner, before);
    expect(off.map((m) => m.subject)).toEqual(['Your ad was taken off XG Marketplace: Live ad that staff take down']);
    expect(off[0].text).toContain('See your ads: https://xg.example/admin/dashboard/my-ads\n');
    expect(off[0].text).toContain('write to us: https://xg.example/contact-us');
    expect(off[0].headers?.['List-Unsubscribe']).toBeUndefined(); // service mail, not a reminder

    // Disabling it again changes nothing and tells nothing.
    const again = ctx.mailer.sent.length;
    expect((await setStatus([ad.id], 'disabled')).json()).toEqual({ updated: 0 });
    expect(mailsTo(owner, again)).toEqual([]);

    await speaks(owner, 'es');
    const back = ctx.mailer.sent.length;
    expect((await setStatus([ad.id, ad.id], 'approved')).json()).toEqual({ updated: 1 });
    const on = mailsTo(owner, back);
    expect(on.map((m) => m.subject)).toEqual(['Tu anuncio volvió a XG Marketplace: Live ad that staff take down']);
    expect(on[0].text).toContain('Ver tus anuncios: https://xg.example/es/admin/dashboard/my-ads\n');
    expect(on[0].text).toContain('Escríbenos: https://xg.example/es/contact-us');
  });

  it('tells each owner of a batch about their own ad only, opted out of reminders or not', async () => {
    const other = await makeUser(ctx, { status: 'approved' });
    await ctx.app.deps.db.updateTable('users').set({ reminders_opt_out: 1 }).where('id', '=', other.id).execute();
    const mine = await liveAd(ctx, owner, admin, ny, { title: 'First owner’s live ad' });
    const theirs = await liveAd(ctx, other, admin, ny, { title: 'Second owner’s live ad' });
    const before = ctx.mailer.sent.length;
    expect((await setStatus([mine.id, theirs.id], 'disabled')).json()).toEqual({ updated: 2 });
    expect(mailsTo(owner, before).map((m) => m.subject)).toEqual([expect.stringContaining('First owner’s live ad')]);
    expect(mailsTo(other, before).map((m) => m.subject)).toEqual([expect.stringContaining('Second owner’s live ad')]);
    expect(ctx.mailer.sent.length - before).toBe(2);
  });
});
