import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { Route, Switch } from 'wouter';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, CITIES_NY, STATES, makeOwnerAd } from '../../components/market/testing';
import type { OwnerAd } from '../../api/ads';
import { sessionStore } from '../../state/session';
import EditAd from './EditAd';
import MyAds from './MyAds';

/** My ads lists the one ad (in the pending list); PUT /api/ads/:id answers `answer(ad)`. */
function editServer(ad: OwnerAd, answer: (ad: OwnerAd) => OwnerAd) {
  const sent: number[] = [];
  server.use(
    http.get('/api/all-ads-by-user', ({ request }) => {
      const list = new URL(request.url).searchParams.get('list');
      const pendingAds = list === 'approved' ? [] : [ad];
      return apiJson('GET /api/all-ads-by-user', {
        approvedAds: [],
        pendingAds,
        total: pendingAds.length,
        page: 1,
        pageSize: 20,
        totals: { approvedAds: 0, pendingAds: 1 },
      });
    }),
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
    http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
    http.get('/api/cities-from-state/:stateId', () => apiJson('GET /api/cities-from-state/:stateId', { cities: CITIES_NY })),
    http.put('/api/ads/:id', () => {
      sent.push(1);
      return apiJson('PUT /api/ads/:id', { ad: answer(ad) });
    }),
  );
  return sent;
}

function renderEdit(id: string) {
  sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'u1@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
  sessionStore.loaded = true;
  return renderAt(
    <Switch>
      <Route path="/admin/dashboard/edit-ad/:id" component={EditAd} />
      <Route path="/admin/dashboard/my-ads" component={MyAds} />
    </Switch>,
    `/admin/dashboard/edit-ad/${id}`,
  );
}

describe('edit an ad, then switch language', () => {
  it('words my ads’ “saved and back in your cart” again in Spanish', async () => {
    const ad = makeOwnerAd({ status: 'rejected', title: 'Turned down by staff', rejectionReason: 'Photos do not match' });
    editServer(ad, (a) => ({ ...a, status: 'unpaid', rejectionReason: null, priceCents: null, paidWalletId: null }));
    const user = userEvent.setup();
    const view = renderEdit(ad.id);
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('City').value).toBe('ct-nyc'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(view.currentPath()).toBe('/admin/dashboard/my-ads'));
    expect((await screen.findByRole('status')).textContent).toBe(
      '“Turned down by staff” is saved and back in your cart: pay for it to send it to review again.',
    );

    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByRole('status').textContent).toBe(
      '«Turned down by staff» está guardado y de vuelta en tu carrito: págalo para enviarlo de nuevo a revisión.',
    );
  });

  it('words “correct the fields” again in Spanish', async () => {
    const ad = makeOwnerAd({ status: 'in_review', title: 'Waiting for staff' });
    const sent = editServer(ad, (a) => a);
    const user = userEvent.setup();
    renderEdit(ad.id);
    await user.click(await screen.findByLabelText('Keep photo 1')); // no photo left
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByRole('alert').textContent).toBe('Please correct the fields marked below.');

    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByRole('alert').textContent).toBe('Corrige los campos marcados abajo.');
    expect(sent).toHaveLength(0);
  });
});

describe('edit an ad in Spanish', () => {
  // The rates' prices open as the page's language types them (the other money fields do too):
  // "150,00", not the stored "150.00", which a Spanish reader takes for a hundred and fifty thousand.
  it('shows a rate’s price with the Spanish decimal mark, and sends it back in cents unchanged', async () => {
    await act(() => i18n.changeLanguage('es'));
    const ad = makeOwnerAd({ status: 'in_review', details: { rates: [{ minutes: 60, priceCents: 15000 }], incall: true, outcall: false, availability: {} } });
    let body: FormData | null = null;
    editServer(ad, (a) => a);
    server.use(
      http.put('/api/ads/:id', async ({ request }) => {
        body = await request.formData();
        return apiJson('PUT /api/ads/:id', { ad });
      }),
    );
    const user = userEvent.setup();
    renderEdit(ad.id);
    const price = await screen.findByLabelText<HTMLInputElement>('Precio de la tarifa 1 en dólares');
    expect(price.value).toBe('150,00');
    await user.click(screen.getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(body).not.toBeNull());
    expect(JSON.parse(body!.get('rates') as string)).toEqual([{ minutes: 60, priceCents: 15000 }]);
  });
});
