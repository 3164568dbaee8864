import { describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, CITIES_NY, STATES, apiError, makeOwnerAd } from '../../components/market/testing';
import CreateAds from './CreateAds';
import { navigation } from '../../api/client';
import { loadSession, login, logout, sessionStore } from '../../state/session';
import { GUEST, type Session } from '../../api/session';

function baseHandlers() {
  server.use(
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
    http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
    http.get('/api/cities-from-state/:stateId', ({ params }) =>
      params.stateId === 'st-ny'
        ? apiJson('GET /api/cities-from-state/:stateId', { cities: CITIES_NY })
        : apiError('GET /api/cities-from-state/:stateId', 404, 'locations.state_not_found'),
    ),
  );
}

const jpeg = (name: string, size = 1000) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });

/** Fills every field of a valid ad (one photo). */
async function fillValidAd(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(screen.getByLabelText('Listing type'), 'female_esc');
  await user.type(screen.getByLabelText('Title'), 'Warm and friendly company');
  await user.type(screen.getByLabelText('Description'), 'Relaxed evenings, good conversation and a warm welcome every time.');
  await user.selectOptions(screen.getByLabelText('Age'), '30');
  await waitFor(() => expect(screen.getByRole('option', { name: 'New York' })).toBeTruthy());
  await user.selectOptions(screen.getByLabelText('State'), 'st-ny');
  await waitFor(() => expect(screen.getByRole('option', { name: 'Buffalo' })).toBeTruthy());
  await user.selectOptions(screen.getByLabelText('City'), 'ct-buf');
  await user.type(screen.getByLabelText('Phone'), '(212) 555-0123');
  await user.upload(screen.getByLabelText('Photos'), [jpeg('one.jpg')]);
}

describe('post-ad form', () => {
  it('shows every rule, blocks a submit that breaks them and sends nothing', async () => {
    baseHandlers();
    let posted = 0;
    server.use(http.post('/api/post-ad', () => (posted++, apiJson('POST /api/post-ad', { ad: makeOwnerAd({ status: 'unpaid' }) }, 201))));
    const user = userEvent.setup();
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');

    // rules are visible before any submit
    expect(screen.getByText(/Title: 10 to 100 characters/)).toBeTruthy();
    expect(screen.getByText(/Description: 50 to 5000 characters/)).toBeTruthy();
    expect(screen.getByText(/1 to 10 photos, JPEG, PNG or WebP, at most 10 MB each/)).toBeTruthy();

    await user.type(screen.getByLabelText('Title'), 'short');
    await user.type(screen.getByLabelText('Phone'), '12345');
    await user.click(screen.getByRole('button', { name: 'Post ad' }));

    expect(screen.getByRole('alert').textContent).toContain('Please correct the fields marked below.');
    expect(screen.getByText('Choose a listing type.')).toBeTruthy();
    expect(screen.getByText('Title: 10 to 100 characters.').className).toBe('field-error'); // the error, beside the always-shown hint
    expect(screen.getByText(/Enter a US phone number/)).toBeTruthy();
    expect(screen.getByText('Choose a state.')).toBeTruthy();
    expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).toBe('true');
    expect(posted).toBe(0);
  });

  it('refuses a file of the wrong type or size and lets a chosen photo be removed', async () => {
    baseHandlers();
    const user = userEvent.setup({ applyAccept: false });
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    const input = screen.getByLabelText<HTMLInputElement>('Photos');
    await user.upload(input, [new File(['x'], 'doc.pdf', { type: 'application/pdf' }), jpeg('big.jpg', 10 * 1024 * 1024 + 1), jpeg('ok.jpg')]);
    expect(screen.getByText('doc.pdf is not a JPEG, PNG or WebP image.')).toBeTruthy();
    expect(screen.getByText('big.jpg is larger than 10 MB.')).toBeTruthy();
    expect(screen.getByRole('list', { name: '1 photo selected' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove photo ok.jpg' }));
    expect(screen.queryByRole('list', { name: /selected/ })).toBeNull();
  });

  it('shows the price of the chosen type, posts a multipart body and goes to the cart', async () => {
    baseHandlers();
    let form: FormData | null = null;
    server.use(
      http.post('/api/post-ad', async ({ request }) => {
        form = await request.formData();
        return apiJson('POST /api/post-ad', { ad: makeOwnerAd({ status: 'unpaid' }) }, 201);
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<CreateAds />, '/admin/dashboard/create-ads');

    await user.selectOptions(screen.getByLabelText('Listing type'), 'female_esc');
    expect(await screen.findByText('$15.00')).toBeTruthy();
    expect(screen.getByText(/for 30 days/)).toBeTruthy();
    await user.type(screen.getByLabelText('Title'), '  Warm and friendly company  ');
    await user.type(screen.getByLabelText('Description'), 'Relaxed evenings, good conversation and a warm welcome every time.');
    await user.selectOptions(screen.getByLabelText('Age'), 'over45');
    await waitFor(() => expect(screen.getByRole('option', { name: 'New York' })).toBeTruthy());
    await user.selectOptions(screen.getByLabelText('State'), 'st-ny');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Buffalo' })).toBeTruthy());
    await user.selectOptions(screen.getByLabelText('City'), 'ct-buf');
    await user.type(screen.getByLabelText('Phone'), '(212) 555-0123');
    await user.upload(screen.getByLabelText('Photos'), [jpeg('one.jpg'), new File([new Uint8Array(10)], 'two.png', { type: 'image/png' })]);
    await user.click(screen.getByRole('button', { name: 'Post ad' }));

    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard/my-cart'));
    const fd = form as unknown as FormData;
    expect(fd.get('listingType')).toBe('female_esc');
    expect(fd.get('title')).toBe('Warm and friendly company');
    expect(fd.get('age')).toBe('over45');
    expect(fd.get('stateId')).toBe('st-ny');
    expect(fd.get('cityId')).toBe('ct-buf');
    expect(fd.get('phone')).toBe('+12125550123');
    const photos = fd.getAll('photos') as File[];
    expect(photos.map((p) => p.name)).toEqual(['one.jpg', 'two.png']);
    expect(photos[0].size).toBe(1000);
  });

  it('shows the server’s refusal in the page’s language, naming the field in that language', async () => {
    baseHandlers();
    server.use(http.post('/api/post-ad', () => apiError('POST /api/post-ad', 400, 'ad.screened_wording', { field: 'title', term: 'teen' })));
    await i18n.changeLanguage('es');
    try {
      const user = userEvent.setup();
      const view = renderAt(<CreateAds />, '/es/admin/dashboard/create-ads');
      await user.selectOptions(screen.getByLabelText('Tipo de anuncio'), 'female_esc');
      await user.type(screen.getByLabelText('Título'), 'Sweet teen new in town');
      await user.type(screen.getByLabelText('Descripción'), 'Relaxed evenings, good conversation and a warm welcome every time.');
      await user.selectOptions(screen.getByLabelText('Edad'), '30');
      await waitFor(() => expect(screen.getByRole('option', { name: 'New York' })).toBeTruthy());
      await user.selectOptions(screen.getByLabelText('Estado'), 'st-ny');
      await waitFor(() => expect(screen.getByRole('option', { name: 'Buffalo' })).toBeTruthy());
      await user.selectOptions(screen.getByLabelText('Ciudad'), 'ct-buf');
      await user.type(screen.getByLabelText('Teléfono'), '(212) 555-0123');
      await user.upload(screen.getByLabelText('Fotos'), [jpeg('one.jpg')]);
      await user.click(screen.getByRole('button', { name: 'Publicar anuncio' }));

      expect((await screen.findByRole('alert')).textContent).toBe(
        'El campo título contiene palabras que no permitimos ("teen"). Los anuncios nunca deben sugerir menores de edad ni coerción.',
      );
      expect(view.currentPath()).toBe('/es/admin/dashboard/create-ads'); // nothing posted: the form stays
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('sends the optional rates, incall / outcall and hours, checked before submit like the server does', async () => {
    baseHandlers();
    let form: FormData | null = null;
    server.use(
      http.post('/api/post-ad', async ({ request }) => {
        form = await request.formData();
        return apiJson('POST /api/post-ad', { ad: makeOwnerAd({ status: 'unpaid' }) }, 201);
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    // The rules of the richer fields are shown before any submit.
    expect(screen.getByText('Up to 5 lines, each a duration and its price; one price per duration.')).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Listing type'), 'female_rub');
    await user.type(screen.getByLabelText('Title'), 'Warm and friendly company');
    await user.type(screen.getByLabelText('Description'), 'Relaxed evenings, good conversation and a warm welcome every time.');
    await user.selectOptions(screen.getByLabelText('Age'), '30');
    await waitFor(() => expect(screen.getByRole('option', { name: 'New York' })).toBeTruthy());
    await user.selectOptions(screen.getByLabelText('State'), 'st-ny');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Buffalo' })).toBeTruthy());
    await user.selectOptions(screen.getByLabelText('City'), 'ct-buf');
    await user.type(screen.getByLabelText('Phone'), '(212) 555-0123');
    await user.upload(screen.getByLabelText('Photos'), [jpeg('one.jpg')]);

    // Six lines cannot be added; a price over $10,000 is refused.
    const add = screen.getByRole('button', { name: 'Add a rate' });
    for (let i = 0; i < 5; i++) await user.click(add);
    expect(add).toHaveProperty('disabled', true);
    for (const n of [5, 4, 3]) await user.click(screen.getByRole('button', { name: `Remove rate ${n}` }));
    await user.selectOptions(screen.getByLabelText('Duration of rate 1'), '60');
    await user.type(screen.getByLabelText('Price of rate 1 in US dollars'), '250');
    await user.selectOptions(screen.getByLabelText('Duration of rate 2'), '1440');
    await user.type(screen.getByLabelText('Price of rate 2 in US dollars'), '10000.01');
    await user.click(screen.getByLabelText('Outcall: you go to your clients'));
    await user.click(screen.getByLabelText('Saturday'));
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    expect(screen.getByText('Each rate needs a duration and a price from $1.00 to $10,000.00.')).toBeTruthy();
    expect(form).toBeNull();

    await user.clear(screen.getByLabelText('Price of rate 2 in US dollars'));
    await user.type(screen.getByLabelText('Price of rate 2 in US dollars'), '$1,500');
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard/my-cart'));
    const fd = form as unknown as FormData;
    expect(JSON.parse(fd.get('rates') as string)).toEqual([
      { minutes: 60, priceCents: 25000 },
      { minutes: 1440, priceCents: 150000 },
    ]);
    expect(fd.get('incall')).toBe('false');
    expect(fd.get('outcall')).toBe('true');
    expect(JSON.parse(fd.get('availability') as string)).toEqual({ sat: { from: '10:00', to: '22:00' } });
  });

  it('keeps what was typed when the session ends on the way, gives it back after signing in (photos aside), to that user only', async () => {
    baseHandlers();
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    sessionStore.loaded = true;
    // Signed out in another tab: the post is refused and the tab is sent to sign in.
    server.use(http.post('/api/post-ad', () => apiError('POST /api/post-ad', 401, 'auth.sign_in_required')));
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    try {
      const user = userEvent.setup();
      const first = renderAt(<CreateAds />, '/admin/dashboard/create-ads');
      expect(screen.queryByRole('status')).toBeNull(); // nothing to give back yet
      await fillValidAd(user);
      await user.click(screen.getByLabelText('Saturday'));
      await user.click(screen.getByRole('button', { name: 'Post ad' }));
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/auth/login?redirect=%2F'));
      first.unmount(); // the tab goes to the sign-in page

      // Signed in again, back on the form: the words are there, the photos are to choose again.
      renderAt(<CreateAds />, '/admin/dashboard/create-ads');
      expect(screen.getByRole('status').textContent).toBe(
        'We kept what you wrote here before the page was left or reloaded. Check it and add the photos again: they are not kept.',
      );
      expect(screen.getByLabelText<HTMLSelectElement>('Listing type').value).toBe('female_esc');
      expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Warm and friendly company');
      expect(screen.getByLabelText<HTMLTextAreaElement>('Description').value).toBe('Relaxed evenings, good conversation and a warm welcome every time.');
      expect(screen.getByLabelText<HTMLInputElement>('Phone').value).toBe('(212) 555-0123');
      expect(screen.getByLabelText<HTMLSelectElement>('City').value).toBe('ct-buf');
      expect(screen.getByLabelText<HTMLInputElement>('Saturday').checked).toBe(true);
      expect(screen.queryByRole('list', { name: /selected/ })).toBeNull();
      cleanup();

      // Signing out forgets it.
      server.use(http.post('/api/logout', () => apiJson('POST /api/logout', { isAuthenticated: false, userRoles: ['GUEST_USER'] })));
      await logout();
      sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
      renderAt(<CreateAds />, '/admin/dashboard/create-ads');
      expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('');
      expect(screen.queryByRole('status')).toBeNull();

      // A draft is its writer's: someone else signing in in this tab does not get it.
      await user.type(screen.getByLabelText('Title'), 'Warm and friendly company');
      cleanup();
      sessionStore.session = { ...sessionStore.session, id: 'u2', email: 'bea@example.com' };
      renderAt(<CreateAds />, '/admin/dashboard/create-ads');
      expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('');
    } finally {
      assign.mockRestore();
    }
  });

  // Signed out in another tab or device: the tab reads a visitor's session (the socket tells it)
  // while the form is still on screen, then goes to sign in. Signed in again as the same user, the
  // form gives back what was typed.
  it('keeps what was typed when the session ends elsewhere while the form is open, for the same user signing in again', async () => {
    baseHandlers();
    const ann: Session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    let answer = ann;
    server.use(
      http.get('/api/session', () => apiJson('GET /api/session', answer)),
      http.post('/api/login', () => apiJson('POST /api/login', ann)),
    );
    await loadSession();
    const user = userEvent.setup();
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    await user.type(screen.getByLabelText('Title'), 'Warm and friendly company');
    await user.type(screen.getByLabelText('Description'), 'Relaxed evenings, good conversation and a warm welcome every time.');
    answer = GUEST;
    await act(() => loadSession());
    cleanup(); // the tab goes to sign in
    await login('ann@example.com', 'correct horse battery');
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Warm and friendly company');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Description').value).toBe('Relaxed evenings, good conversation and a warm welcome every time.');
    expect(screen.getByRole('status').textContent).toContain('We kept what you wrote here');
  });

  it('forgets the draft once the ad is posted', async () => {
    baseHandlers();
    server.use(http.post('/api/post-ad', () => apiJson('POST /api/post-ad', { ad: makeOwnerAd({ status: 'unpaid' }) }, 201)));
    const user = userEvent.setup();
    const view = renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    await fillValidAd(user);
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard/my-cart'));
    view.unmount();
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('words “correct the fields” again in Spanish', async () => {
    baseHandlers();
    const user = userEvent.setup();
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    await user.click(screen.getByRole('button', { name: 'Post ad' }));
    expect(screen.getByRole('alert').textContent).toBe('Please correct the fields marked below.');

    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByRole('alert').textContent).toBe('Corrige los campos marcados abajo.');
  });
});
