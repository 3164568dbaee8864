import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Router } from 'wouter';
import i18n from 'i18next';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { contentOf, makeStaffAd } from '../../components/market/testing';
import type { StaffAd } from '../../api/ads';
import type { DuplicateFlag } from '../../api/moderation';
import { sessionStore } from '../../state/session';
import PendingAds from './PendingAds';

function pendingServer(initial: StaffAd[], unpaid: StaffAd[] = [], flags: DuplicateFlag[] = []) {
  let list = [...initial];
  const decisions: unknown[] = [];
  const queries: URLSearchParams[] = [];
  const flagQueries: string[] = [];
  server.use(
    http.get('/api/admin/get-duplicate-flags', ({ request }) => {
      const ids = new URL(request.url).searchParams.get('adIds')!.split(',');
      flagQueries.push(ids.join(','));
      return apiJson('GET /api/admin/get-duplicate-flags', { flags: flags.filter((f) => ids.includes(f.adId)) });
    }),
    http.get('/api/admin/get-pending-ads', ({ request }) => {
      const q = new URL(request.url).searchParams;
      queries.push(q);
      const all = q.get('includeUnpaid') === 'true' ? [...list, ...unpaid] : list;
      const ads = all.filter((a) => !q.get('query') || a.title.toLowerCase().includes(q.get('query')!.toLowerCase()));
      return apiJson('GET /api/admin/get-pending-ads', { pendingAds: ads, total: ads.length, page: 1, pageSize: 20 });
    }),
    http.post('/api/admin/approve-pending-ads', async ({ request }) => {
      const body = (await request.json()) as { adIds: string[]; seen?: { id: string; updatedAt: string }[] };
      decisions.push(body);
      // As the server does: a decision (approval or rejection) skips an ad changed since the version it names.
      const changed = (id: string) => body.seen?.some((s) => s.id === id && s.updatedAt !== list.find((a) => a.id === id)?.updatedAt) ?? false;
      const decided = body.adIds.filter((id) => list.some((a) => a.id === id) && !changed(id));
      list = list.filter((a) => !decided.includes(a.id));
      return apiJson('POST /api/admin/approve-pending-ads', { updated: decided.length });
    }),
  );
  /** The owner edits an ad in review: its content and updatedAt change. */
  const edit = (id: string, patch: Partial<StaffAd>) => {
    list = list.map((a) => (a.id === id ? { ...a, ...patch } : a));
  };
  return { decisions, queries, flagQueries, edit };
}

describe('admin pending ads', () => {
  it('approves one ad, and rejects the selected ones with the reason the owner will see', async () => {
    const [a, b, c] = [
      makeStaffAd({ status: 'in_review', title: 'First ad in review', ownerId: 'u1', priceCents: 1500 }),
      makeStaffAd({ status: 'in_review', title: 'Second ad in review' }),
      makeStaffAd({ status: 'in_review', title: 'Third ad in review' }),
    ];
    const srv = pendingServer([a, b, c]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');

    const first = await screen.findByRole('listitem', { name: 'First ad in review' });
    expect(within(first).getByText(/\$15\.00/)).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'Open photo 1' }).getAttribute('href')).toBe(a.photos[0].url);
    await user.click(within(first).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('status')).textContent).toBe('1 ad approved.');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'First ad in review' })).toBeNull());

    await user.click(screen.getByRole('checkbox', { name: 'Select “Second ad in review”' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select “Third ad in review”' }));
    await user.click(screen.getByRole('button', { name: 'Reject selected (2)' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject 2 ads' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject and refund' }));
    expect(within(dialog).getByText('Between 3 and 500 characters.').className).toBe('field-error'); // an empty reason is refused
    await user.type(within(dialog).getByLabelText('Reason (the owner sees it)'), 'Photos do not match the description');
    await user.selectOptions(within(dialog).getByLabelText('Category (counted in the transparency report)'), 'misleading');
    await user.click(within(dialog).getByRole('button', { name: 'Reject and refund' }));

    expect((await screen.findByRole('status')).textContent).toBe('2 ads rejected and refunded.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(srv.decisions).toEqual([
      { adIds: [a.id], decision: 'approve', seen: [{ id: a.id, updatedAt: a.updatedAt }] },
      {
        adIds: [b.id, c.id],
        decision: 'reject',
        reason: 'Photos do not match the description',
        category: 'misleading',
        seen: [
          { id: b.id, updatedAt: b.updatedAt },
          { id: c.id, updatedAt: c.updatedAt },
        ],
      },
    ]);
    expect(screen.getByText('No ads are waiting for review.')).toBeTruthy();
  });

  // A reason half written is not thrown away by a stray Escape or click beside the dialog (nor by a
  // session that ends on the way: state/typedText.ts); the dialog's Cancel button drops it.
  it('keeps the rejection reason typed for these ads when the dialog is closed without Cancel', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'mod-1', email: 'mod@example.com', userStatus: 'approved', userRoles: ['ADMIN_USER'] };
    const a = makeStaffAd({ status: 'in_review', title: 'First ad in review' });
    pendingServer([a]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    const item = await screen.findByRole('listitem', { name: 'First ad in review' });
    const reject = () => user.click(within(item).getByRole('button', { name: 'Reject' }));
    const reason = () => within(screen.getByRole('dialog')).getByLabelText('Reason (the owner sees it)') as HTMLTextAreaElement;
    await reject();
    await user.type(reason(), 'The photos show another person');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await reject();
    expect(reason().value).toBe('The photos show another person');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await reject();
    expect(reason().value).toBe('');
  });

  it('keeps keyboard focus on the page when an approved ad leaves the list with its Approve button: the outcome takes it', async () => {
    const [a, b] = [makeStaffAd({ status: 'in_review', title: 'First ad in review' }), makeStaffAd({ status: 'in_review', title: 'Second ad in review' })];
    pendingServer([a, b]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    await user.click(within(await screen.findByRole('listitem', { name: 'First ad in review' })).getByRole('button', { name: 'Approve' }));
    const status = await screen.findByRole('status');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'First ad in review' })).toBeNull());
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement).toBe(status);
  });

  it('approves only the version shown: an ad its owner changed meanwhile is not approved, and the list shows it changed', async () => {
    const a = makeStaffAd({ status: 'in_review', title: 'As the reviewer saw it', updatedAt: '2025-01-05T10:00:00.000Z' });
    const b = makeStaffAd({ status: 'in_review', title: 'Unchanged ad in review' });
    const srv = pendingServer([a, b]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    await screen.findByRole('listitem', { name: 'As the reviewer saw it' });
    srv.edit(a.id, { title: 'Rewritten after the list was opened', updatedAt: '2025-01-05T10:05:00.000Z' });
    await user.click(screen.getByRole('checkbox', { name: 'Select “As the reviewer saw it”' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select “Unchanged ad in review”' }));
    await user.click(screen.getByRole('button', { name: 'Approve selected (2)' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      '1 ad approved. 1 of the selected was not decided: it changed or was decided meanwhile, or its city or state is disabled (an approval waits until its owner moves it). The list shows it as it is now.',
    );
    expect(srv.decisions).toEqual([
      {
        adIds: [a.id, b.id],
        decision: 'approve',
        seen: [
          { id: a.id, updatedAt: '2025-01-05T10:00:00.000Z' },
          { id: b.id, updatedAt: b.updatedAt },
        ],
      },
    ]);
    expect(await screen.findByRole('listitem', { name: 'Rewritten after the list was opened' })).toBeTruthy();
    expect(screen.queryByRole('listitem', { name: 'Unchanged ad in review' })).toBeNull();
  });

  // The reason is about the text the reviewer read: the owner's fix made meanwhile is not rejected with it.
  it('rejects only the version shown: an ad its owner changed meanwhile is not rejected, and the list shows it changed', async () => {
    const a = makeStaffAd({ status: 'in_review', title: 'Call 212 555 0142 now', updatedAt: '2025-01-05T10:00:00.000Z' });
    const srv = pendingServer([a]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    const item = await screen.findByRole('listitem', { name: 'Call 212 555 0142 now' });
    srv.edit(a.id, { title: 'Elegant companion in Manhattan', updatedAt: '2025-01-05T10:05:00.000Z' });
    await user.click(within(item).getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason (the owner sees it)'), 'Phone number in the title');
    await user.click(within(dialog).getByRole('button', { name: 'Reject and refund' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      '0 ads rejected and refunded. 1 of the selected was not decided: it changed or was decided meanwhile, or its city or state is disabled (an approval waits until its owner moves it). The list shows it as it is now.',
    );
    expect(srv.decisions).toEqual([
      {
        adIds: [a.id],
        decision: 'reject',
        reason: 'Phone number in the title',
        category: 'other',
        seen: [{ id: a.id, updatedAt: '2025-01-05T10:00:00.000Z' }],
      },
    ]);
    expect(await screen.findByRole('listitem', { name: 'Elegant companion in Manhattan' })).toBeTruthy();
  });

  it('shows unpaid ads only when asked to', async () => {
    const srv = pendingServer([makeStaffAd({ status: 'in_review', title: 'Paid and waiting' })], [makeStaffAd({ status: 'unpaid', title: 'Still in a cart' })]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    await screen.findByRole('listitem', { name: 'Paid and waiting' });
    expect(screen.queryByRole('listitem', { name: 'Still in a cart' })).toBeNull();
    expect(srv.queries[0].get('includeUnpaid')).toBe('false');
    await user.click(screen.getByRole('checkbox', { name: 'Include unpaid ads' }));
    const unpaid = await screen.findByRole('listitem', { name: 'Still in a cart' });
    expect(within(unpaid).getByText('Unpaid')).toBeTruthy();
    expect(srv.queries.at(-1)!.get('includeUnpaid')).toBe('true');
    // View only: the server reviews paid ads, so nothing is offered on an unpaid one.
    expect(within(unpaid).getByText(/^Unpaid: still in its owner’s cart/)).toBeTruthy();
    expect(within(unpaid).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(unpaid).queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(within(unpaid).getByRole<HTMLInputElement>('checkbox', { name: 'Select “Still in a cart”' }).disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(screen.getByRole('button', { name: 'Approve selected (1)' })).toBeTruthy();
  });

  it('searches the queue, and shows other accounts’ ads with the same phone or photo with links to them and their owners', async () => {
    const ad = makeStaffAd({ status: 'in_review', title: 'Harbour companion', ownerId: 'u1' });
    const other = makeStaffAd({ status: 'in_review', title: 'Meadow companion', ownerId: 'u2' });
    const flags: DuplicateFlag[] = [
      {
        adId: ad.id,
        otherAdId: 'zz1',
        otherAdTitle: 'Older advert, same phone',
        otherAdStatus: 'approved',
        otherOwner: { id: 'u9', email: 'twin@example.com', nickname: 'twin' },
        kind: 'phone',
        distance: null,
      },
      {
        adId: ad.id,
        otherAdId: 'zz2',
        otherAdTitle: null,
        otherAdStatus: 'deleted',
        otherOwner: { id: 'u8', email: 'copy@example.com', nickname: 'copy' },
        kind: 'photo',
        distance: 3,
      },
    ];
    const srv = pendingServer([ad, other], [], flags);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    const item = await screen.findByRole('listitem', { name: 'Harbour companion' });
    const note = await within(item).findByRole('note');
    expect(note.textContent).toContain('Possible duplicates (2)');
    expect(within(note).getByRole('link', { name: 'Older advert, same phone' }).getAttribute('href')).toBe('/admin/dashboard/admin/search-ads?query=zz1');
    expect(within(note).getByRole('link', { name: 'Open the user screen of twin@example.com' }).getAttribute('href')).toBe('/admin/dashboard/admin/users/u9');
    expect(within(note).getByText(/Near-identical photo \(3 bits apart\) as/)).toBeTruthy();
    expect(within(note).getByText(/Deleted \(kept\)/)).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'Meadow companion' })).queryByRole('note')).toBeNull();
    expect(
      within(item)
        .getByRole('link', { name: `Owner’s page: ${ad.owner.email}` })
        .getAttribute('href'),
    ).toBe('/admin/dashboard/admin/users/u1');
    expect(srv.flagQueries[0]).toBe(`${ad.id},${other.id}`);

    await user.type(screen.getByLabelText('Search this list (ad id, words, phone, owner’s e-mail or nickname)'), 'meadow');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Harbour companion' })).toBeNull());
    expect(screen.getByRole('listitem', { name: 'Meadow companion' })).toBeTruthy();
    expect(srv.queries.at(-1)!.get('query')).toBe('meadow');
    // The count is a live region: the outcome of the search is announced.
    expect(screen.getByText('1 in total').getAttribute('aria-live')).toBe('polite');
  });

  it('offers no decision on the admin’s own ad, and leaves it out of “select all”', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const mine = makeStaffAd({ status: 'in_review', title: 'My own ad in review', ownerId: 'me' });
    const theirs = makeStaffAd({ status: 'in_review', title: 'Someone else’s ad', ownerId: 'u2' });
    const srv = pendingServer([mine, theirs]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');

    const own = await screen.findByRole('listitem', { name: 'My own ad in review' });
    expect(within(own).getByText('Your own ad: another admin reviews it.')).toBeTruthy();
    expect(within(own).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(own).getByRole<HTMLInputElement>('checkbox', { name: 'Select “My own ad in review”' }).disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('button', { name: 'Approve selected (1)' }));
    await screen.findByRole('status');
    expect(srv.decisions).toEqual([{ adIds: [theirs.id], decision: 'approve', seen: [{ id: theirs.id, updatedAt: theirs.updatedAt }] }]);
  });

  it('deciding the last ad of the last page shows the page before, not an empty queue', async () => {
    let list: StaffAd[] = Array.from({ length: 21 }, (_, i) => makeStaffAd({ status: 'in_review', title: `Ad in review number ${i + 1}`, ownerId: 'u2' }));
    server.use(
      http.get('/api/admin/get-duplicate-flags', () => apiJson('GET /api/admin/get-duplicate-flags', { flags: [] })),
      http.get('/api/admin/get-pending-ads', ({ request }) => {
        const q = new URL(request.url).searchParams;
        const page = Number(q.get('page') ?? 1);
        const pageSize = Number(q.get('pageSize') ?? 20);
        return apiJson('GET /api/admin/get-pending-ads', {
          pendingAds: list.slice((page - 1) * pageSize, page * pageSize),
          total: list.length,
          page,
          pageSize,
        });
      }),
      http.post('/api/admin/approve-pending-ads', async ({ request }) => {
        const body = (await request.json()) as { adIds: string[] };
        list = list.filter((a) => !body.adIds.includes(a.id));
        return apiJson('POST /api/admin/approve-pending-ads', { updated: body.adIds.length });
      }),
    );
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    await screen.findByRole('listitem', { name: 'Ad in review number 1' });
    await user.click(within(screen.getByRole('navigation', { name: /pag/i })).getByRole('link', { name: 'Page 2' }));
    const last = await screen.findByRole('listitem', { name: 'Ad in review number 21' });
    await user.click(within(last).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('status')).textContent).toBe('1 ad approved.');
    expect(await screen.findByRole('listitem', { name: 'Ad in review number 1' })).toBeTruthy();
    expect(screen.queryByText('No ads are waiting for review.')).toBeNull();
  });

  it('forgets the selection on another page: “Approve selected” never approves ads that are not shown', async () => {
    const list: StaffAd[] = Array.from({ length: 21 }, (_, i) => makeStaffAd({ status: 'in_review', title: `Queued ad number ${i + 1}`, ownerId: 'u2' }));
    server.use(
      http.get('/api/admin/get-duplicate-flags', () => apiJson('GET /api/admin/get-duplicate-flags', { flags: [] })),
      http.get('/api/admin/get-pending-ads', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return apiJson('GET /api/admin/get-pending-ads', { pendingAds: list.slice((page - 1) * 20, page * 20), total: list.length, page, pageSize: 20 });
      }),
    );
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    await screen.findByRole('listitem', { name: 'Queued ad number 1' });
    await user.click(screen.getByRole('checkbox', { name: 'Select “Queued ad number 1”' }));
    expect(screen.getByRole('button', { name: 'Approve selected (1)' })).toBeTruthy();

    await user.click(within(screen.getByRole('navigation', { name: /pag/i })).getByRole('link', { name: 'Page 2' }));
    await screen.findByRole('listitem', { name: 'Queued ad number 21' });
    expect(screen.getByRole('button', { name: 'Approve selected (0)' }).getAttribute('aria-disabled')).toBe('true'); // refused, yet focusable
    expect(screen.getByRole('button', { name: 'Reject selected (0)' }).getAttribute('aria-disabled')).toBe('true'); // refused, yet focusable
  });

  it('opens the live ad of an edit in the page’s language', async () => {
    const live = makeStaffAd({ status: 'approved', title: 'Evenings in the city', ownerId: 'u2' });
    const revision: StaffAd = { ...live, id: 'rev-1', revisionOf: live.id, previous: contentOf(live), title: 'Evenings and weekends in the city' };
    pendingServer([revision]);
    await i18n.changeLanguage('es');
    try {
      renderAt(
        <Router base="/es">
          <PendingAds />
        </Router>,
        '/es/admin/dashboard/admin/pending-ads',
      );
      const item = await screen.findByRole('listitem', { name: 'Evenings and weekends in the city' });
      const link = within(item)
        .getAllByRole('link')
        .find((a) => a.getAttribute('target') === '_blank' && a.getAttribute('href')?.includes(live.id));
      expect(link?.getAttribute('href')).toBe(`/es/ad/${live.id}`);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('shows an edit of a live ad beside the live ad, changed fields marked, and decides it with its own id', async () => {
    const live = makeStaffAd({ status: 'approved', title: 'Evenings in the city', ownerId: 'u2' });
    const revision: StaffAd = {
      ...live,
      id: 'rev-1',
      revisionOf: live.id,
      previous: contentOf(live),
      title: 'Evenings and weekends in the city',
      photos: [...live.photos, { url: '/uploads/ads/new.webp', width: 800, height: 600, thumbUrl: '/uploads/ads/new-thumb.webp' }],
      details: { rates: [{ minutes: 60, priceCents: 20000 }], incall: true, outcall: false, availability: { fri: { from: '20:00', to: '02:00' } } },
    };
    const srv = pendingServer([revision]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');

    const item = await screen.findByRole('listitem', { name: 'Evenings and weekends in the city' });
    expect(within(item).getByText('Edit of a live ad')).toBeTruthy();
    expect(within(item).getByRole('link', { name: 'See the live ad' }).getAttribute('href')).toBe(`/ad/${live.id}`);
    const table = within(item).getByRole('table', { name: 'Live ad and proposed changes (4 fields changed)' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Field', 'Live now', 'Proposed']);
    const row = (name: RegExp) => within(table).getByRole('row', { name });
    const cells = (r: HTMLElement) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(row(/^Title/).getAttribute('data-changed')).toBe('true');
    expect(within(row(/^Title/)).getByText('changed')).toBeTruthy();
    expect(cells(row(/^Title/))).toEqual(['Evenings in the city', 'Evenings and weekends in the city']);
    // the ad's own text in its writer's direction (dir="auto"), the rest in the page's
    const dirs = (r: HTMLElement) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.getAttribute('dir'));
    expect([dirs(row(/^Title/)), dirs(row(/^Description/)), dirs(row(/^Age/))]).toEqual([
      ['auto', 'auto'],
      ['auto', 'auto'],
      [null, null],
    ]);
    expect(cells(row(/^Rates/))).toEqual(['none', '1 hour $200.00 · Incall only']);
    expect(cells(row(/^Hours/))).toEqual(['none', 'Friday 20:00–02:00 (local time)']);
    expect(row(/^Photos/).getAttribute('data-changed')).toBe('true');
    expect(
      within(row(/^Photos/))
        .getByRole('list', { name: 'Proposed photos' })
        .querySelectorAll('li'),
    ).toHaveLength(2);
    expect(row(/^Age/).getAttribute('data-changed')).toBeNull();
    expect(within(row(/^Age/)).queryByText('changed')).toBeNull();
    expect(cells(row(/^Location/))).toEqual(['New York City, New York', 'New York City, New York']);
    expect(srv.flagQueries[0]).toBe(live.id); // duplicates are the ad's

    await user.click(within(item).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('status')).textContent).toBe('1 ad approved.');
    expect(srv.decisions).toEqual([{ adIds: ['rev-1'], decision: 'approve', seen: [{ id: 'rev-1', updatedAt: revision.updatedAt }] }]);
  });

  // The whole batch is refused for the ads of accounts linked to the reviewer (ads.review.service.ts):
  // the refusal names them, as the list shows them, so that the reviewer leaves them out.
  it('names the ads a refused batch approval was refused for, in the page’s language', async () => {
    const [a, b, c] = [
      makeStaffAd({ status: 'in_review', title: 'First ad in review' }),
      makeStaffAd({ status: 'in_review', title: 'Second ad in review' }),
      makeStaffAd({ status: 'in_review', title: 'Third ad in review' }),
    ];
    pendingServer([a, b, c]);
    const asked: string[][] = [];
    server.use(
      http.post('/api/admin/approve-pending-ads', async ({ request }) => {
        asked.push(((await request.json()) as { adIds: string[] }).adIds);
        const message = 'You cannot review your own ad, or one of an account linked to yours (the same phone or photo): another admin must.';
        return apiJson(
          'POST /api/admin/approve-pending-ads',
          { message, code: 'ad.review_own_ad', params: { adIds: `${c.id},${a.id}` } } as never,
          409 as never,
        );
      }),
    );
    const user = userEvent.setup();
    const approveAll = async (selectAll: string, approve: string) => {
      await user.click(await screen.findByRole('checkbox', { name: selectAll }));
      await user.click(screen.getByRole('button', { name: approve }));
      return (await screen.findByRole('alert')).textContent;
    };
    const view = renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    expect(await approveAll('Select all on this page', 'Approve selected (3)')).toBe(
      'You cannot review your own ad, or one of an account linked to yours (the same phone or photo): another admin must. “Third ad in review” and “First ad in review”',
    );
    view.unmount();
    await i18n.changeLanguage('es');
    try {
      renderAt(
        <Router base="/es">
          <PendingAds />
        </Router>,
        '/es/admin/dashboard/admin/pending-ads',
      );
      expect(await approveAll('Seleccionar todo en esta página', 'Aprobar seleccionados (3)')).toBe(
        'No puedes revisar tu propio anuncio ni el de una cuenta vinculada a la tuya (el mismo teléfono o la misma foto): debe hacerlo otro administrador. «Third ad in review» y «First ad in review»',
      );
    } finally {
      await i18n.changeLanguage('en');
    }
    expect(asked).toHaveLength(2);
  });
});
