import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Route, Switch } from 'wouter';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, CITIES_NY, STATES, apiError, makeOwnerAd, makeRevision } from '../../components/market/testing';
import type { OwnerAd } from '../../api/ads';
import { sessionStore } from '../../state/session';
import { loadMyAds, myAdsStore } from '../../state/ads';
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

function renderEdit(id: string) {
  sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
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
