import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, apiError, makeOwnerAd, makeRevision, promoWallet, usdWallet } from '../../components/market/testing';
import type { OwnerAd } from '../../api/ads';
import type { UserStatus } from '../../../contract/api/auth.ts';
import { walletsStore } from '../../state/wallets';
import { sessionStore } from '../../state/session';
import MyAds from './MyAds';

function signIn(userStatus: UserStatus = 'approved') {
  sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus, userRoles: ['PROVIDER_USER'] };
  sessionStore.loaded = true;
}

/**
 * My ads as the server pages them (GET /api/all-ads-by-user): a page of one list, or of both, or
 * one ad by id, with both lists' totals. The arrays are read at each request (a test may change
 * them); every request's query is kept.
 */
function listServer(approvedAds: OwnerAd[], pendingAds: OwnerAd[] = []) {
  const asked: string[] = [];
  server.use(
    http.get('/api/all-ads-by-user', ({ request }) => {
      const q = new URL(request.url).searchParams;
      asked.push(q.toString());
      const page = Number(q.get('page') ?? 1);
      const pageSize = Number(q.get('pageSize') ?? 20);
      const list = q.get('list');
      const adId = q.get('adId');
      const totals = { approvedAds: approvedAds.length, pendingAds: pendingAds.length };
      if (adId) {
        const [a, p] = [approvedAds.filter((x) => x.id === adId), pendingAds.filter((x) => x.id === adId)];
        return apiJson('GET /api/all-ads-by-user', { approvedAds: a, pendingAds: p, total: a.length + p.length, page, pageSize, totals });
      }
      const ads = list === 'approved' ? approvedAds : list === 'pending' ? pendingAds : [...approvedAds, ...pendingAds];
      const shown = ads.slice((page - 1) * pageSize, page * pageSize);
      return apiJson('GET /api/all-ads-by-user', {
        approvedAds: shown.filter((x) => approvedAds.includes(x)),
        pendingAds: shown.filter((x) => pendingAds.includes(x)),
        total: ads.length,
        page,
        pageSize,
        totals,
      });
    }),
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
  );
  return asked;
}

/** `n` approved ads titled "Ad 1" … "Ad n", newest first. */
const manyAds = (n: number) => Array.from({ length: n }, (_, i) => makeOwnerAd({ id: `ad-${i + 1}`, status: 'approved', title: `Ad ${i + 1}` }));
const titlesShown = () => screen.queryAllByRole('listitem').map((li) => li.getAttribute('aria-label'));

/** What an ad's card offers: its state badge, its state sentence, its buttons and switches (names), and whether it links to editing. */
function card(title: string) {
  const item = screen.getByRole('listitem', { name: title });
  const controls = [...within(item).queryAllByRole('switch'), ...within(item).queryAllByRole('button')].map(
    (b) => b.textContent?.trim() || b.closest('label')?.textContent,
  );
  const edit = within(item).queryByRole('link', { name: 'Edit' });
  return { item, controls, edit: edit?.getAttribute('href') ?? null, text: item.textContent ?? '' };
}

describe('my ads', () => {
  it('lists approved and pending ads, with the reason a rejected one was refused', async () => {
    const live = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    const rejected = makeOwnerAd({ status: 'rejected', title: 'Turned down by staff', rejectionReason: 'Photos do not match' });
    const waiting = makeOwnerAd({ status: 'in_review', title: 'Waiting for staff' });
    listServer([live], [rejected, waiting]);
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');

    expect(await screen.findByRole('listitem', { name: 'Evenings in the city' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Pending (2)' }));
    expect(within(screen.getByRole('listitem', { name: 'Turned down by staff' })).getByText(/Rejected: Photos do not match/)).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'Waiting for staff' })).getByText('Our staff are reviewing this ad.')).toBeTruthy();
  });

  it('takes an ad offline with the ad the server returns', async () => {
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    const bodies: unknown[] = [];
    listServer([ad]);
    server.use(
      http.put('/api/update-ad-online-status/:id', async ({ request }) => {
        const body = (await request.json()) as { online: boolean };
        bodies.push(body);
        return apiJson('PUT /api/update-ad-online-status/:id', { ad: { ...ad, online: body.online } });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const item = await screen.findByRole('listitem', { name: 'Evenings in the city' });
    const toggle = within(item).getByRole<HTMLInputElement>('switch', { name: 'Online' });
    expect(toggle.checked).toBe(true);
    await user.click(toggle);
    await waitFor(() => expect(toggle.checked).toBe(false));
    expect(bodies).toEqual([{ online: false }]);
  });

  it('a bump refused as too soon says so (not "already paid"); a bump that goes through shows the new balance', async () => {
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    let tooSoon = true;
    listServer([ad]);
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.put('/api/bump-ad/:id', () => {
        if (tooSoon) return apiError('PUT /api/bump-ad/:id', 409, 'ad.bump_too_soon');
        return apiJson('PUT /api/bump-ad/:id', { ad: { ...ad, bumpedAt: '2025-01-03T10:00:00.000Z' }, wallet: usdWallet(700) });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const item = await screen.findByRole('listitem', { name: 'Evenings in the city' });
    await user.click(within(item).getByRole('button', { name: 'Bump to top' }));
    const dialog = screen.getByRole('dialog', { name: 'Bump “Evenings in the city”' });
    expect(await within(dialog).findByText('$3.00')).toBeTruthy();
    await waitFor(() => expect(within(dialog).getByRole('radio', { name: /USD wallet — \$10\.00/ })).toBeTruthy());

    await user.click(within(dialog).getByRole('button', { name: 'Pay and bump' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This ad went to the top of its listings less than a minute ago (approved or bumped): it is there now. Try again in a minute.',
    );

    tooSoon = false;
    await user.click(within(dialog).getByRole('button', { name: 'Pay and bump' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Evenings in the city” is now at the top of its list.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(walletsStore.state.data?.find((w) => w.id === 'w-usd')?.amountCents).toBe(700);
  });

  it('shows each ad in one clear state with the actions that state allows, its views and its edit in review', async () => {
    signIn('approved');
    const live = makeOwnerAd({ status: 'approved', title: 'Live and visible', views7: 12, views30: 40 });
    const offline = makeOwnerAd({ status: 'approved', online: false, title: 'Set offline' });
    const expired = makeOwnerAd({ status: 'expired', title: 'Ran out of time', expiresAt: '2025-01-01T10:00:00.000Z' });
    const disabled = makeOwnerAd({ status: 'disabled', title: 'Disabled by staff' });
    const revised = makeOwnerAd({ status: 'approved', title: 'Edited while live' });
    revised.revision = makeRevision(revised, { title: 'Edited while live, new title' });
    const refused = makeOwnerAd({ status: 'approved', title: 'Edit refused' });
    refused.revision = makeRevision(refused, {}, { status: 'rejected', rejectionReason: 'Blurry photos' });
    const unpaid = makeOwnerAd({ status: 'unpaid', title: 'Still in the cart' });
    const inReview = makeOwnerAd({ status: 'in_review', title: 'Waiting for staff' });
    const rejected = makeOwnerAd({ status: 'rejected', title: 'Turned down', rejectionReason: 'Photos do not match' });
    listServer([live, offline, expired, disabled, revised, refused], [unpaid, inReview, rejected]);
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    await screen.findByRole('listitem', { name: 'Live and visible' });

    const a = card('Live and visible');
    expect(within(a.item).getByText('Visible')).toBeTruthy();
    expect(within(a.item).getByText('Approved and visible on the site.')).toBeTruthy();
    expect(within(a.item).getByText('Views: 12 in the last 7 days, 40 in the last 30 days')).toBeTruthy();
    expect(a.controls).toEqual(['Online', 'Renew', 'Bump to top', 'Move to another city', 'Delete']);
    expect(a.edit).toBe(`/admin/dashboard/edit-ad/${live.id}`);

    const o = card('Set offline');
    expect(within(o.item).getByText('Hidden: offline')).toBeTruthy();
    expect(within(o.item).getByText('Approved, but hidden: you set it offline. Switch it online to show it again.')).toBeTruthy();
    expect(o.controls).toEqual(['Online', 'Renew', 'Move to another city', 'Delete']); // no bump: it is on no list

    const e = card('Ran out of time');
    expect(within(e.item).getByText('Expired')).toBeTruthy();
    expect(within(e.item).getByText('Approved, but hidden: it expired on Jan 1, 2025. Renew it to show it again.')).toBeTruthy();
    expect(e.controls).toEqual(['Renew', 'Move to another city', 'Delete']); // moved, it may be renewed where its city is open
    expect(e.edit).not.toBeNull();

    const d = card('Disabled by staff');
    expect(within(d.item).getByText('Our staff disabled this ad. Contact us if you think this is a mistake.')).toBeTruthy();
    expect(d.controls).toEqual(['Delete']);
    expect(d.edit).toBeNull();

    expect(
      within(card('Edited while live').item).getByText('Your changes of Jan 5, 2025 are waiting for review. Until staff approve them, the ad shows as it was.'),
    ).toBeTruthy();
    expect(within(card('Edited while live').item).getByText('Visible')).toBeTruthy(); // the live ad still shows meanwhile
    expect(within(card('Edit refused').item).getByText('Your last changes were rejected; the ad still shows as it was. Reason: Blurry photos')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Pending (3)' }));
    const u = card('Still in the cart');
    expect(within(u.item).getByText('Unpaid')).toBeTruthy();
    expect(within(u.item).getByText('Waiting in your cart: pay for it to send it to review.')).toBeTruthy();
    expect(u.controls).toEqual(['Pay', 'Delete']);
    expect(u.edit).not.toBeNull();
    const r = card('Waiting for staff');
    expect(within(r.item).getByText('In review')).toBeTruthy();
    expect(r.controls).toEqual(['Delete']);
    expect(r.edit).not.toBeNull();
    const x = card('Turned down');
    expect(within(x.item).getByText('Rejected')).toBeTruthy();
    expect(x.controls).toEqual(['Delete']);
    expect(x.edit).not.toBeNull();
  });

  it('says an approved ad is hidden while the account waits for approval', async () => {
    signIn('pending');
    listServer([makeOwnerAd({ status: 'approved', title: 'Approved early' })]);
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const item = await screen.findByRole('listitem', { name: 'Approved early' });
    expect(within(item).getByText('Hidden: account not approved')).toBeTruthy();
    expect(within(item).getByText('Approved, but hidden until our staff approve your account.')).toBeTruthy();
    expect(card('Approved early').controls).toEqual(['Online', 'Renew', 'Move to another city', 'Delete']);
  });

  it('deletes an ad in review with a full refund, and an approved one without, each saying so first', async () => {
    signIn();
    const live = makeOwnerAd({ status: 'approved', title: 'Live one' });
    const waiting = makeOwnerAd({ status: 'in_review', title: 'Paid, not reviewed', priceCents: 1500 });
    listServer([live], [waiting]);
    const deleted: string[] = [];
    server.use(
      http.delete('/api/ads/:id', ({ params }) => {
        deleted.push(String(params.id));
        return apiJson('DELETE /api/ads/:id', { deleted: true, refundedCents: params.id === waiting.id ? 1500 : 0 });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');

    await user.click(within(await screen.findByRole('listitem', { name: 'Live one' })).getByRole('button', { name: 'Delete' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete “Live one”?' });
    expect(dialog.textContent).toContain(
      '“Live one” will be removed from the site. No refund is given for an approved ad, whatever time it has left.This cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toEqual([]);
    await user.click(within(screen.getByRole('listitem', { name: 'Live one' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete ad' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Live one” was deleted.');
    expect(screen.queryByRole('listitem', { name: 'Live one' })).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Pending (1)' }));
    await user.click(within(screen.getByRole('listitem', { name: 'Paid, not reviewed' })).getByRole('button', { name: 'Delete' }));
    dialog = screen.getByRole('dialog', { name: 'Delete “Paid, not reviewed”?' });
    expect(
      within(dialog).getByText('“Paid, not reviewed” has not been reviewed yet: its price, $15.00, goes back in full to the wallet that paid it.'),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete ad' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Paid, not reviewed” was deleted and $15.00 went back to your wallet.');
    expect(deleted).toEqual([live.id, waiting.id]);
  });

  it('opens the renew dialog from an e-mail link: the new expiry before paying, a short wallet refused, then renewed', async () => {
    signIn();
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    const other = makeOwnerAd({ status: 'approved', title: 'Another ad' });
    listServer([other, ad]);
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000), promoWallet(5000)] })),
      http.put('/api/renew-ad/:id', async ({ request, params }) => {
        const body = (await request.json()) as { walletId: string };
        bodies.push({ id: params.id, ...body });
        if (body.walletId === 'w-usd') return apiError('PUT /api/renew-ad/:id', 402, 'wallet.insufficient_funds');
        return apiJson('PUT /api/renew-ad/:id', { ad: { ...ad, expiresAt: '2099-03-03T10:00:00.000Z' }, wallet: promoWallet(3500) });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, `/admin/dashboard/my-ads?renew=${ad.id}`);

    const dialog = await screen.findByRole('dialog', { name: 'Renew “Evenings in the city”' });
    expect(within(dialog).getByText('It expires on Feb 1, 2099. Renewing adds 30 days: it will run until Mar 3, 2099.')).toBeTruthy();
    expect(await within(dialog).findByText('$15.00')).toBeTruthy();
    // The USD wallet cannot cover $15.00 (marked); the promo wallet is preselected.
    expect(await within(dialog).findByRole('radio', { name: /USD wallet — \$10\.00.*not enough money/ })).toBeTruthy();
    expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: /Promo wallet — \$50\.00/ }).checked).toBe(true);

    await user.click(within(dialog).getByRole('radio', { name: /USD wallet/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Pay and renew' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This wallet does not have enough money for this ad. Choose another wallet or add funds.',
    );
    await user.click(within(dialog).getByRole('radio', { name: /Promo wallet/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Pay and renew' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Evenings in the city” is renewed until Mar 3, 2099.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bodies).toEqual([
      { id: ad.id, walletId: 'w-usd', priceCents: 1500, durationDays: 30 },
      { id: ad.id, walletId: 'w-promo', priceCents: 1500, durationDays: 30 },
    ]);
    expect(within(screen.getByRole('listitem', { name: 'Evenings in the city' })).getByText(/expires Mar 3, 2099/)).toBeTruthy();
    expect(walletsStore.state.data?.find((w) => w.id === 'w-promo')?.amountCents).toBe(3500);
  });

  it('shows a short wallet on renewal in the page’s language', async () => {
    signIn();
    const ad = makeOwnerAd({ status: 'expired', title: 'Old ad', expiresAt: '2025-01-01T10:00:00.000Z' });
    listServer([ad]);
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(100)] })),
      http.put('/api/renew-ad/:id', () => apiError('PUT /api/renew-ad/:id', 402, 'wallet.insufficient_funds')),
    );
    await i18n.changeLanguage('es');
    const user = userEvent.setup();
    renderAt(<MyAds />, '/es/admin/dashboard/my-ads');
    await user.click(within(await screen.findByRole('listitem', { name: 'Old ad' })).getByRole('button', { name: 'Renovar' }));
    const dialog = screen.getByRole('dialog', { name: 'Renovar «Old ad»' });
    // The price as Spanish writes dollars ("15,00 US$"): Intl's own form, the one the page uses
    // (its no-break space read as the plain space findByText normalises text to).
    const price = new Intl.NumberFormat('es', { style: 'currency', currency: 'USD' }).format(15).replace(/\s/g, ' ');
    expect((await within(dialog).findAllByText(price)).length).toBeGreaterThan(0);
    await user.click(within(dialog).getByRole('button', { name: 'Pagar y renovar' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Esta billetera no tiene saldo suficiente para este anuncio. Elige otra billetera o añade fondos.',
    );
  });

  it('a renew link for an ad that is gone says so; an edit link goes to the edit screen', async () => {
    signIn();
    listServer([makeOwnerAd({ status: 'approved', title: 'Some ad' })]);
    const a = renderAt(<MyAds />, '/admin/dashboard/my-ads?renew=nope');
    expect((await screen.findByRole('alert')).textContent).toBe('The ad in this link is no longer among your ads.');
    expect(screen.queryByRole('dialog')).toBeNull();
    a.unmount();

    const b = renderAt(<MyAds />, '/admin/dashboard/my-ads?edit=ad-42');
    await waitFor(() => expect(b.currentPath()).toBe('/admin/dashboard/edit-ad/ad-42'));
  });

  it('pays an unpaid ad from my ads: it goes to review', async () => {
    signIn();
    const ad = makeOwnerAd({ status: 'unpaid', title: 'Ready to pay' });
    listServer([], [ad]);
    const paid: unknown[] = [];
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(2000)] })),
      http.put('/api/ad-payment-in-cart/:id', async ({ request, params }) => {
        paid.push({ id: params.id, ...((await request.json()) as object) });
        return apiJson('PUT /api/ad-payment-in-cart/:id', {
          ad: { ...ad, status: 'in_review', priceCents: 1500, paidWalletId: 'w-usd' },
          wallet: usdWallet(500),
        });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    await user.click(await screen.findByRole('tab', { name: 'Pending (1)' }));
    await user.click(within(await screen.findByRole('listitem', { name: 'Ready to pay' })).getByRole('button', { name: 'Pay' }));
    const dialog = screen.getByRole('dialog', { name: 'Pay for “Ready to pay”' });
    await within(dialog).findByText('$15.00');
    await waitFor(() => expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: /USD wallet — \$20\.00/ }).checked).toBe(true));
    await user.click(within(dialog).getByRole('button', { name: 'Pay and send to review' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Ready to pay” is paid and waiting for review.');
    expect(paid).toEqual([{ id: ad.id, walletId: 'w-usd', priceCents: 1500, durationDays: 30 }]);
    const item = screen.getByRole('listitem', { name: 'Ready to pay' });
    expect(within(item).getByText('In review')).toBeTruthy();
    expect(within(item).getByText('Our staff are reviewing this ad.')).toBeTruthy();
  });
  describe('paged', () => {
    it('shows a page of the open tab with each list’s total, reads the next page, and the other tab from its first page', async () => {
      signIn();
      const asked = listServer(manyAds(45), [makeOwnerAd({ status: 'unpaid', title: 'In the cart' })]);
      const user = userEvent.setup();
      renderAt(<MyAds />, '/admin/dashboard/my-ads');
      await screen.findByRole('listitem', { name: 'Ad 1' });
      expect(titlesShown()).toHaveLength(20);
      expect(screen.getByRole('tab', { name: 'Approved (45)' })).toBeTruthy();
      expect(screen.getByRole('tab', { name: 'Pending (1)' })).toBeTruthy();
      const pager = screen.getByRole('navigation', { name: 'My ads pages' });
      expect(within(pager).getByText(/Page 1 of 3/)).toBeTruthy();

      await user.click(within(pager).getByRole('button', { name: 'Next' }));
      await screen.findByRole('listitem', { name: 'Ad 21' });
      expect(titlesShown()).toEqual(Array.from({ length: 20 }, (_, i) => `Ad ${i + 21}`));
      expect(within(pager).getByText(/Page 2 of 3/)).toBeTruthy();

      await user.click(screen.getByRole('tab', { name: 'Pending (1)' }));
      await screen.findByRole('listitem', { name: 'In the cart' });
      expect(titlesShown()).toEqual(['In the cart']);
      expect(screen.queryByRole('navigation', { name: 'My ads pages' })).toBeNull();
      expect(asked).toEqual(['list=approved&page=1&pageSize=20', 'list=approved&page=2&pageSize=20', 'list=pending&page=1&pageSize=20']);
    });

    it('deleting an ad with more pages after it brings the next one up; deleting the last ad of the last page shows the page before', async () => {
      signIn();
      const approved = manyAds(22);
      listServer(approved);
      server.use(
        http.delete('/api/ads/:id', ({ params }) => {
          approved.splice(
            approved.findIndex((a) => a.id === params.id),
            1,
          );
          return apiJson('DELETE /api/ads/:id', { deleted: true, refundedCents: 0 });
        }),
      );
      const user = userEvent.setup();
      renderAt(<MyAds />, '/admin/dashboard/my-ads');
      const remove = async (title: string) => {
        await user.click(within(await screen.findByRole('listitem', { name: title })).getByRole('button', { name: 'Delete' }));
        await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete ad' }));
        expect((await screen.findByRole('status')).textContent).toBe(`“${title}” was deleted.`);
      };

      await remove('Ad 1');
      await screen.findByRole('listitem', { name: 'Ad 21' }); // the next page's first ad moved up
      expect(titlesShown()).toEqual(Array.from({ length: 20 }, (_, i) => `Ad ${i + 2}`));
      expect(screen.getByRole('tab', { name: 'Approved (21)' })).toBeTruthy();

      await user.click(within(screen.getByRole('navigation', { name: 'My ads pages' })).getByRole('button', { name: 'Next' }));
      await remove('Ad 22');
      await screen.findByRole('listitem', { name: 'Ad 2' });
      expect(titlesShown()).toHaveLength(20);
      expect(screen.queryByRole('navigation', { name: 'My ads pages' })).toBeNull();
      expect(screen.getByRole('tab', { name: 'Approved (20)' })).toBeTruthy();
      expect(screen.queryByText('You have no approved ads yet.')).toBeNull();
    });

    it('an e-mail’s renew link opens its ad’s dialog whatever page the ad is on', async () => {
      signIn();
      const approved = manyAds(30);
      const asked = listServer(approved);
      server.use(http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(5000)] })));
      renderAt(<MyAds />, '/admin/dashboard/my-ads?renew=ad-28');
      expect(await screen.findByRole('dialog', { name: 'Renew “Ad 28”' })).toBeTruthy();
      expect(asked).toContain('adId=ad-28');
      expect(screen.queryByRole('alert')).toBeNull();
    });
  });
});
