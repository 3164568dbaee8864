import { describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Route, Switch } from 'wouter';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, CITIES_NY, STATES, apiError, makeOwnerAd, makeRevision } from '../../components/market/testing';
import type { OwnerAd } from '../../api/ads';
import { loadSession, login, logout, sessionStore } from '../../state/session';
import { GUEST, type Session } from '../../api/session';
import { loadMyAds, myAdsStore } from '../../state/ads';
import { resetAllStores } from '../../state/resource';
import { navigation } from '../../api/client';
import EditAd from './EditAd';
import MyAds from './MyAds';

const jpeg = (name: string, size = 1000) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });

/** The ad's photos as the server stores them: two, large and thumbnail. */
const twoPhotos = (id: string) => [
  { url: `/uploads/ads/${id}-a.webp`, width: 800, height: 600, thumbUrl: `/uploads/ads/${id}-a-thumb.webp` },
  { url: `/uploads/ads/${id}-b.webp`, width: 800, height: 600, thumbUrl: `/uploads/ads/${id}-b-thumb.webp` },
];

const wasApproved = (a: OwnerAd) => ['approved', 'expired', 'disabled'].includes(a.status);

/** My ads lists `ads`; PUT /api/ads/:id records its multipart body and answers `answer(ad)`. */
function editServer(ads: OwnerAd[], answer: (ad: OwnerAd) => OwnerAd) {
  const sent: FormData[] = [];
  server.use(
    http.get('/api/all-ads-by-user', ({ request }) => {
      // As the server answers: one list when `list` names it, or the one ad `adId` names (the lists are paged; one page holds these).
      const q = new URL(request.url).searchParams;
      const [list, adId] = [q.get('list'), q.get('adId')];
      const shown = (a: OwnerAd) => (adId ? a.id === adId : !list || (list === 'approved') === wasApproved(a));
      const approvedAds = ads.filter((a) => wasApproved(a) && shown(a));
      const pendingAds = ads.filter((a) => !wasApproved(a) && shown(a));
      const totals = { approvedAds: ads.filter(wasApproved).length, pendingAds: ads.filter((a) => !wasApproved(a)).length };
      return apiJson('GET /api/all-ads-by-user', { approvedAds, pendingAds, total: approvedAds.length + pendingAds.length, page: 1, pageSize: 20, totals });
    }),
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
    http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
    http.get('/api/cities-from-state/:stateId', ({ params }) =>
      params.stateId === 'st-ny'
        ? apiJson('GET /api/cities-from-state/:stateId', { cities: CITIES_NY })
        : apiError('GET /api/cities-from-state/:stateId', 404, 'locations.state_not_found'),
    ),
    http.put('/api/ads/:id', async ({ request, params }) => {
      sent.push(await request.formData());
      const ad = ads.find((a) => a.id === params.id)!;
      return apiJson('PUT /api/ads/:id', { ad: answer(ad) });
    }),
  );
  return sent;
}

function renderEdit(id: string, userId = 'u1') {
  sessionStore.session = { isAuthenticated: true, id: userId, email: `${userId}@example.com`, userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
  sessionStore.loaded = true;
  return renderAt(
    <Switch>
      <Route path="/admin/dashboard/edit-ad/:id" component={EditAd} />
      <Route path="/admin/dashboard/my-ads" component={MyAds} />
    </Switch>,
    `/admin/dashboard/edit-ad/${id}`,
  );
}

describe('edit an ad', () => {
  it('edits a live ad as a revision: the form is filled in, photos kept or removed, rates, incall and hours sent', async () => {
    const ad = makeOwnerAd({
      status: 'approved',
      title: 'Evenings in the city',
      photos: twoPhotos('live'),
      details: { rates: [{ minutes: 60, priceCents: 20000 }], incall: false, outcall: true, availability: { mon: { from: '18:00', to: '02:00' } } },
    });
    const sent = editServer([ad], (a) => ({ ...a, revision: makeRevision(a, { title: 'Evenings and weekends in the city' }) }));
    const user = userEvent.setup();
    const view = renderEdit(ad.id);

    expect(await screen.findByRole('heading', { level: 1, name: 'Edit “Evenings in the city”' })).toBeTruthy();
    expect(
      screen.getByText('This ad is approved: our staff review your changes before the public sees them. Until then the ad shows as it is now.'),
    ).toBeTruthy();
    // Filled in from the ad.
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Evenings in the city');
    expect(screen.getByLabelText<HTMLSelectElement>('Listing type').value).toBe('female_esc');
    // Paid for as that type: it cannot change, and the form says why.
    expect(screen.getByLabelText<HTMLSelectElement>('Listing type').disabled).toBe(true);
    expect(screen.getByLabelText('Listing type').getAttribute('aria-describedby')).toBe('ad-type-hint');
    expect(screen.getByText('The listing type is the one this ad was paid for. For another type, post a new ad.')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Phone').value).toBe('+12125550123');
    expect(screen.getByLabelText<HTMLSelectElement>('Duration of rate 1').value).toBe('60');
    expect(screen.getByLabelText<HTMLInputElement>('Price of rate 1 in US dollars').value).toBe('200.00');
    expect(screen.getByLabelText<HTMLInputElement>('Outcall: you go to your clients').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Incall: clients come to you').checked).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>('Monday').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Monday from').value).toBe('18:00');
    expect(screen.getByLabelText<HTMLInputElement>('Monday until').value).toBe('02:00');
    expect(screen.getByLabelText<HTMLInputElement>('Tuesday from').disabled).toBe(true);
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('City').value).toBe('ct-nyc'));

    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Evenings and weekends in the city');
    await user.click(screen.getByLabelText('Keep photo 1')); // the first photo goes
    await user.upload(screen.getByLabelText('Add new photos'), [jpeg('new.jpg')]);
    await user.click(screen.getByRole('button', { name: 'Add a rate' }));
    expect(screen.getByLabelText<HTMLSelectElement>('Duration of rate 2').value).toBe('15'); // the first duration not listed yet
    await user.selectOptions(screen.getByLabelText('Duration of rate 2'), '30');
    await user.type(screen.getByLabelText('Price of rate 2 in US dollars'), '120');
    await user.click(screen.getByLabelText('Incall: clients come to you'));
    await user.click(screen.getByLabelText('Friday'));
    await user.clear(screen.getByLabelText('Friday from'));
    await user.type(screen.getByLabelText('Friday from'), '20:30');
    await user.click(screen.getByRole('button', { name: 'Send changes for review' }));

    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard/my-ads'));
    expect(sent).toHaveLength(1);
    const fd = sent[0];
    expect(fd.get('title')).toBe('Evenings and weekends in the city');
    expect(fd.get('phone')).toBe('+12125550123');
    expect(fd.get('stateId')).toBe('st-ny');
    expect(fd.get('cityId')).toBe('ct-nyc');
    expect(JSON.parse(fd.get('keepPhotos') as string)).toEqual(['/uploads/ads/live-b.webp']);
    expect((fd.getAll('photos') as File[]).map((f) => f.name)).toEqual(['new.jpg']);
    expect(JSON.parse(fd.get('rates') as string)).toEqual([
      { minutes: 30, priceCents: 12000 },
      { minutes: 60, priceCents: 20000 },
    ]);
    expect(fd.get('incall')).toBe('true');
    expect(fd.get('outcall')).toBe('true');
    expect(JSON.parse(fd.get('availability') as string)).toEqual({ mon: { from: '18:00', to: '02:00' }, fri: { from: '20:30', to: '22:00' } });
    expect((await screen.findByRole('status')).textContent).toBe(
      'Your changes to “Evenings and weekends in the city” are sent for review. The ad shows as it was until staff approve them.',
    );
  });

  it('a rejected ad goes back to the cart once edited, and the screen says so first', async () => {
    const ad = makeOwnerAd({ status: 'rejected', title: 'Turned down by staff', rejectionReason: 'Photos do not match' });
    const sent = editServer([ad], (a) => ({ ...a, status: 'unpaid', rejectionReason: null, priceCents: null, paidWalletId: null }));
    const user = userEvent.setup();
    const view = renderEdit(ad.id);
    expect(
      await screen.findByText(
        'This ad was rejected. Once you save your changes it goes back to your cart: pay for it to send it to review again (the first payment was refunded). Reason: Photos do not match',
      ),
    ).toBeTruthy();
    expect(await screen.findByText('$15.00')).toBeTruthy(); // what paying again costs
    expect(screen.getByLabelText<HTMLSelectElement>('Listing type').disabled).toBe(false); // refunded: another type may be chosen
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('City').value).toBe('ct-nyc'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard/my-ads'));
    expect(JSON.parse(sent[0].get('keepPhotos') as string)).toEqual([ad.photos[0].url]);
    expect(sent[0].getAll('photos')).toEqual([]);
    expect((await screen.findByRole('status')).textContent).toBe(
      '“Turned down by staff” is saved and back in your cart: pay for it to send it to review again.',
    );
  });

  it('checks every rule before sending: photos, rates and hours', async () => {
    const ad = makeOwnerAd({ status: 'in_review', title: 'Waiting for staff' });
    const sent = editServer([ad], (a) => a);
    const user = userEvent.setup();
    renderEdit(ad.id);
    expect(await screen.findByText('Our staff have not reviewed this ad yet: your changes apply at once, and they review the new version.')).toBeTruthy();
    await user.click(screen.getByLabelText('Keep photo 1')); // no photo left
    await user.click(screen.getByRole('button', { name: 'Add a rate' }));
    await user.type(screen.getByLabelText('Price of rate 1 in US dollars'), '0.50');
    await user.click(screen.getByLabelText('Sunday'));
    await user.clear(screen.getByLabelText('Sunday until'));
    await user.type(screen.getByLabelText('Sunday until'), '10:00'); // the same as the start
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(screen.getByRole('alert').textContent).toBe('Please correct the fields marked below.');
    expect(
      screen.getByText('1 to 10 photos, JPEG, PNG or WebP, at most 10 MB each. Location data is removed on upload.', { selector: '.field-error' }),
    ).toBeTruthy();
    expect(screen.getByText('Each rate needs a duration and a price from $1.00 to $10,000.00.')).toBeTruthy();
    expect(screen.getByText('Each ticked day needs a start and an end time that differ.')).toBeTruthy();
    expect(screen.getByLabelText('Price of rate 1 in US dollars').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Sunday from').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Monday from').getAttribute('aria-invalid')).toBeNull();

    // Two lines of the same duration are refused too.
    await user.clear(screen.getByLabelText('Price of rate 1 in US dollars'));
    await user.type(screen.getByLabelText('Price of rate 1 in US dollars'), '100');
    await user.click(screen.getByRole('button', { name: 'Add a rate' }));
    await user.selectOptions(screen.getByLabelText('Duration of rate 2'), '15');
    await user.type(screen.getByLabelText('Price of rate 2 in US dollars'), '90');
    expect(screen.getByText('One price per duration: a duration is listed twice.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove rate 2' }));
    expect(screen.queryByText('One price per duration: a duration is listed twice.')).toBeNull();
    expect(sent).toHaveLength(0);
  });

  it('shows the edit waiting for review, which saving replaces, and keeps its photos', async () => {
    const ad = makeOwnerAd({ status: 'approved', title: 'Live title' });
    ad.revision = makeRevision(ad, { title: 'Pending new title', photos: twoPhotos('rev') });
    const sent = editServer([ad], (a) => a);
    const user = userEvent.setup();
    renderEdit(ad.id);
    expect(await screen.findByText('The form shows your changes waiting for review; saving replaces them.')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Pending new title');
    expect(screen.getByRole('img', { name: 'Current photo 2' }).getAttribute('src')).toBe('/uploads/ads/rev-b-thumb.webp');
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('City').value).toBe('ct-nyc'));
    await user.click(screen.getByRole('button', { name: 'Send changes for review' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(JSON.parse(sent[0].get('keepPhotos') as string)).toEqual(['/uploads/ads/rev-a.webp', '/uploads/ads/rev-b.webp']);
  });

  it('says when the ad cannot be edited or is not the user’s', async () => {
    const disabled = makeOwnerAd({ status: 'disabled', title: 'Disabled one' });
    editServer([disabled], (a) => a);
    const a = renderEdit(disabled.id);
    expect((await screen.findByRole('alert')).textContent).toBe('A disabled ad cannot be edited. Contact us.');
    expect(screen.queryByRole('button', { name: /Save|Send/ })).toBeNull();
    a.unmount();

    renderEdit('someone-elses');
    expect((await screen.findByRole('alert')).textContent).toBe('This ad is not among your ads.');
    expect(screen.getByRole('link', { name: 'Back to my ads' }).getAttribute('href')).toBe('/admin/dashboard/my-ads');
  });
});

describe('the edit screen with my ads read a page at a time', () => {
  it('finds its ad when my ads holds a page (another tab) that does not list it', async () => {
    const live = makeOwnerAd({ id: 'ad-live', status: 'approved', title: 'Live one on the approved tab' });
    const draft = makeOwnerAd({ id: 'ad-draft', status: 'unpaid', title: 'Draft in the cart' });
    editServer([live, draft], (a) => a);
    await loadMyAds({ list: 'approved', page: 1, linked: null }); // my ads was open on its approved tab
    renderEdit(draft.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit “Draft in the cart”' })).toBeTruthy();
  });

  it('keeps the form when my ads is read again (a socket event) and the ad has left that page', async () => {
    const ads = [makeOwnerAd({ id: 'ad-x', status: 'in_review', title: 'Waiting for review' })];
    editServer(ads, (a) => a);
    await loadMyAds({ list: 'pending', page: 1, linked: null });
    renderEdit('ad-x');
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit “Waiting for review”' })).toBeTruthy();
    ads[0] = { ...ads[0], status: 'approved' }; // staff approve it meanwhile: it moves to the other list
    await act(() => myAdsStore.load());
    expect(screen.queryByText('This ad is not among your ads.')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Edit “Waiting for review”' })).toBeTruthy();
  });
});

describe('the edit kept in the tab (a draft)', () => {
  const RESTORED =
    'We kept the changes you made here before the page was left or reloaded. Check them before saving.' +
    'The photos are the ad’s photos as they are now: photos you had added or removed are not kept, so add or remove them again.' +
    'Start again from the ad as it is now';

  /** The tab is left (sent to sign in, reloaded): nothing of the page stays but what the tab keeps. */
  function leave() {
    cleanup();
    resetAllStores();
  }

  /** Opens the edit form of `id` and waits for it to be filled in. */
  async function openEdit(id: string, title: string, userId = 'u1') {
    const view = renderEdit(id, userId);
    expect(await screen.findByRole('heading', { level: 1, name: `Edit “${title}”` })).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('City').value).toBe('ct-nyc'));
    return view;
  }

  it('keeps the changes when the session ends on save and gives them back after signing in, to that user only, until logout', async () => {
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city', photos: twoPhotos('live') });
    editServer([ad], (a) => a);
    // Signed out in another tab: the save is refused and the tab is sent to sign in.
    server.use(http.put('/api/ads/:id', () => apiError('PUT /api/ads/:id', 401, 'auth.sign_in_required')));
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    try {
      const user = userEvent.setup();
      await openEdit(ad.id, 'Evenings in the city');
      expect(screen.queryByRole('status')).toBeNull(); // nothing to give back yet
      await user.clear(screen.getByLabelText('Title'));
      await user.type(screen.getByLabelText('Title'), 'Evenings and weekends in the city');
      await user.click(screen.getByLabelText('Friday'));
      await user.click(screen.getByLabelText('Keep photo 1'));
      await user.upload(screen.getByLabelText('Add new photos'), [jpeg('new.jpg')]);
      await user.click(screen.getByRole('button', { name: 'Send changes for review' }));
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/auth/login?redirect=%2F'));
      leave();

      // Signed in again, back on the form: the changes are there, the photos are the ad's as they are now.
      await openEdit(ad.id, 'Evenings in the city');
      expect(screen.getByRole('status').textContent).toBe(RESTORED);
      expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Evenings and weekends in the city');
      expect(screen.getByLabelText<HTMLInputElement>('Friday').checked).toBe(true);
      expect(screen.getByLabelText<HTMLInputElement>('Keep photo 1').checked).toBe(true);
      expect(screen.getByLabelText<HTMLInputElement>('Keep photo 2').checked).toBe(true);
      expect(screen.queryByRole('list', { name: /selected/ })).toBeNull();
      leave();

      // Signing out forgets it.
      server.use(http.post('/api/logout', () => apiJson('POST /api/logout', { isAuthenticated: false, userRoles: ['GUEST_USER'] })));
      await logout();
      await openEdit(ad.id, 'Evenings in the city');
      expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Evenings in the city');
      expect(screen.queryByRole('status')).toBeNull();

      // A draft is its writer's: someone else signing in in this tab does not get it.
      await user.type(screen.getByLabelText('Title'), ' and more');
      leave();
      await openEdit(ad.id, 'Evenings in the city', 'u2');
      expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Evenings in the city');
      expect(screen.queryByRole('status')).toBeNull();
    } finally {
      assign.mockRestore();
    }
  });

  // Signed out elsewhere while the form is open: the tab reads a visitor's session (the socket
  // tells it), then goes to sign in. The same user signing in again finds the changes.
  it('keeps the changes when the session ends elsewhere while the form is open, for the same user signing in again', async () => {
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city', photos: twoPhotos('live') });
    editServer([ad], (a) => a);
    const ann: Session = { isAuthenticated: true, id: 'u1', email: 'u1@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    server.use(
      http.get('/api/session', () => apiJson('GET /api/session', GUEST)),
      http.post('/api/login', () => apiJson('POST /api/login', ann)),
    );
    const user = userEvent.setup();
    await openEdit(ad.id, 'Evenings in the city');
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Evenings and weekends in the city');
    await act(() => loadSession());
    expect(sessionStore.session.isAuthenticated).toBe(false);
    leave();
    await login('u1@example.com', 'correct horse battery');
    await openEdit(ad.id, 'Evenings in the city');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Evenings and weekends in the city');
  });

  it('keeps one draft per ad, and forgets an ad’s once it is saved', async () => {
    const one = makeOwnerAd({ id: 'ad-1', status: 'in_review', title: 'First ad in review' });
    const two = makeOwnerAd({ id: 'ad-2', status: 'unpaid', title: 'Second ad in the cart' });
    editServer([one, two], (a) => a);
    const user = userEvent.setup();
    await openEdit('ad-1', 'First ad in review');
    await user.type(screen.getByLabelText('Title'), ' (new)');
    leave();
    await openEdit('ad-2', 'Second ad in the cart');
    expect(screen.queryByRole('status')).toBeNull(); // the other ad's draft is not this one's
    await user.type(screen.getByLabelText('Title'), ' (cheaper)');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: /Edit/ })).toBeNull()); // on my ads
    leave();

    await openEdit('ad-2', 'Second ad in the cart');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Second ad in the cart');
    expect(screen.queryByRole('status')).toBeNull();
    leave();
    await openEdit('ad-1', 'First ad in review');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('First ad in review (new)');
    expect(screen.getByRole('status').textContent).toBe(RESTORED);
  });

  it('keeps nothing for a form left as the ad is, and forgets the changes left through Cancel', async () => {
    const ad = makeOwnerAd({ status: 'in_review', title: 'Waiting for staff' });
    editServer([ad], (a) => a);
    const user = userEvent.setup();
    await openEdit(ad.id, 'Waiting for staff');
    await user.type(screen.getByLabelText('Title'), '!');
    await user.type(screen.getByLabelText('Title'), '{Backspace}'); // back to the ad's own title
    leave();
    await openEdit(ad.id, 'Waiting for staff');
    expect(screen.queryByRole('status')).toBeNull();

    await user.type(screen.getByLabelText('Title'), ' for now');
    leave();
    await openEdit(ad.id, 'Waiting for staff');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Waiting for staff for now'); // kept until left on purpose
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: /Edit/ })).toBeNull());
    leave();
    await openEdit(ad.id, 'Waiting for staff');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Waiting for staff');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says plainly when the ad has changed since the draft was taken, shows what was typed, and can start again from the ad', async () => {
    const ads = [makeOwnerAd({ status: 'approved', title: 'Live title' })];
    ads[0].revision = makeRevision(ads[0], { title: 'Pending new title' });
    editServer(ads, (a) => a);
    const user = userEvent.setup();
    await openEdit(ads[0].id, 'Live title');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Pending new title');
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'My newest title');
    leave();

    // Meanwhile staff approve the edit waiting for review: the ad is no longer what the draft was typed over.
    ads[0] = { ...ads[0], title: 'Pending new title', revision: null };
    await openEdit(ads[0].id, 'Pending new title');
    const notice = screen.getByRole('status');
    expect(notice.textContent).toContain(
      'This ad has changed since you made these changes (it was edited elsewhere, or our staff decided on it). The form shows what you typed, not the ad as it is now: check every field before saving.',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('My newest title');
    leave();
    // Still said after another reload (the draft keeps what it was typed over).
    await openEdit(ads[0].id, 'Pending new title');
    expect(screen.getByRole('status').textContent).toContain('This ad has changed since you made these changes');

    await user.click(screen.getByRole('button', { name: 'Start again from the ad as it is now' }));
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Pending new title');
    expect(screen.queryByRole('status')).toBeNull();
    leave();
    await openEdit(ads[0].id, 'Pending new title');
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Pending new title');
  });
});
