import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { Route } from 'wouter';
import { apiError, makeCard } from '../../components/market/testing';
import i18n from 'i18next';
import ListingsCity from './ListingsCity';

const PAGE_SIZE = 2;
const all = [makeCard({ title: 'Newest bump ad here' }), makeCard({ title: 'Second newest ad' }), makeCard({ title: 'Oldest bump ad here' })];

describe('city listing page', () => {
  it('lists the ads of one type in a city, newest bump first, with pagination through ?page=', async () => {
    const seen: URLSearchParams[] = [];
    server.use(
      http.get('/api/users-ads-aggregate/us/:type', () => apiJson('GET /api/users-ads-aggregate/us/:listingType', { locations: [] })),
      http.get('/api/listings', ({ request }) => {
        const q = new URL(request.url).searchParams;
        seen.push(q);
        const page = Number(q.get('page') ?? 1);
        return apiJson('GET /api/listings', { ads: all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), total: all.length, page, pageSize: PAGE_SIZE });
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<Route path="/listings/us/:state/:city/:type" component={ListingsCity} />, '/listings/us/new-york/new-york-city/female-escorts');

    expect(await screen.findByRole('heading', { level: 1, name: 'Female escorts in New York City, New York' })).toBeTruthy();
    const cards = await screen.findAllByRole('heading', { level: 3 });
    expect(cards.map((h) => h.textContent)).toEqual(['Newest bump ad here', 'Second newest ad']);
    expect(seen[0].get('state')).toBe('new-york');
    expect(seen[0].get('city')).toBe('new-york-city');
    expect(seen[0].get('type')).toBe('female_esc');
    expect(screen.getByText('3 ads')).toBeTruthy();
    const link = screen.getByRole('link', { name: /Newest bump ad here/ });
    expect(link.getAttribute('href')).toBe(`/ad/${all[0].id}`);

    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByText('1').getAttribute('aria-current')).toBe('page');
    await user.click(within(pages).getByRole('link', { name: 'Next page' }));
    await waitFor(() => expect(view.currentPath()).toBe('/listings/us/new-york/new-york-city/female-escorts?page=2'));
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Oldest bump ad here']));
    expect(seen.at(-1)!.get('page')).toBe('2');
    expect(within(screen.getByRole('navigation', { name: 'Pages' })).getByRole('link', { name: 'Previous page' }).getAttribute('href')).toBe(
      '/listings/us/new-york/new-york-city/female-escorts',
    );
  });

  it('says so when a city has no ads of that type', async () => {
    server.use(
      http.get('/api/users-ads-aggregate/us/:type', () => apiJson('GET /api/users-ads-aggregate/us/:listingType', { locations: [] })),
      http.get('/api/listings', () => apiJson('GET /api/listings', { ads: [], total: 0, page: 1, pageSize: 20 })),
    );
    renderAt(<Route path="/listings/us/:state/:city/:type" component={ListingsCity} />, '/listings/us/texas/austin/female-bodyrubs');
    expect(await screen.findByText('No ads here yet. Check back soon or try another listing type.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Female body rubs in Austin, Texas');
  });

  it('refuses an unknown listing type without asking the server', async () => {
    let asked = 0;
    server.use(http.get('/api/listings', () => ((asked++), apiJson('GET /api/listings', { ads: [], total: 0, page: 1, pageSize: 20 }))));
    renderAt(<Route path="/listings/us/:state/:city/:type" component={ListingsCity} />, '/listings/us/texas/austin/massages');
    expect(await screen.findByText('This listing type does not exist.')).toBeTruthy();
    expect(asked).toBe(0);
  });

  it('asks again for a list that failed once when the page is opened again', async () => {
    let asked = 0;
    server.use(
      http.get('/api/users-ads-aggregate/us/:type', () => apiJson('GET /api/users-ads-aggregate/us/:listingType', { locations: [] })),
      http.get('/api/listings', () =>
        ++asked === 1
          ? apiError('GET /api/listings', 503, 'request.busy')
          : apiJson('GET /api/listings', { ads: [makeCard({ title: 'Back after the rush' })], total: 1, page: 1, pageSize: 20 }),
      ),
    );
    const path = '/listings/us/texas/austin/female-escorts';
    const first = renderAt(<Route path="/listings/us/:state/:city/:type" component={ListingsCity} />, path);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The server is busy. Please try again in a minute.'));
    first.unmount();

    renderAt(<Route path="/listings/us/:state/:city/:type" component={ListingsCity} />, path);
    expect(await screen.findByRole('heading', { level: 3, name: 'Back after the rush' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(asked).toBe(2);
  });

  it('words a failed load in the language the page is switched to', async () => {
    server.use(
      http.get('/api/users-ads-aggregate/us/:type', () => apiJson('GET /api/users-ads-aggregate/us/:listingType', { locations: [] })),
      http.get('/api/listings', () => apiError('GET /api/listings', 503, 'request.busy')),
    );
    renderAt(<Route path="/listings/us/:state/:city/:type" component={ListingsCity} />, '/listings/us/texas/austin/female-escorts');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The server is busy. Please try again in a minute.'));
    await i18n.changeLanguage('es');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('El servidor está ocupado. Inténtalo de nuevo en un minuto.'));
  });

  // A list counts and pages its first 10,000 ads only (LISTING_TOTAL_CAP): at the cap the heading
  // says "10,000+ ads" (in the page's language, as the server renders it: the same component), and
  // the pagination's last page is the last one the server serves.
  it('says "10,000+ ads" for a list at the cap, and links no page past it', async () => {
    server.use(
      http.get('/api/users-ads-aggregate/us/:type', () => apiJson('GET /api/users-ads-aggregate/us/:listingType', { locations: [] })),
      http.get('/api/listings', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return apiJson('GET /api/listings', { ads: [makeCard({ title: 'One of very many ads' })], total: 10_000, page, pageSize: 20 });
      }),
    );
    const path = '/listings/us/new-york/new-york-city/female-escorts';
    const first = renderAt(<Route path="/listings/us/:state/:city/:type" component={ListingsCity} />, path);
    expect(await screen.findByRole('heading', { level: 2, name: '10,000+ ads' })).toBeTruthy();
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByRole('link', { name: 'Page 500' }).getAttribute('href')).toBe(`${path}?page=500`);
    expect(within(pages).queryByRole('link', { name: 'Page 501' })).toBeNull();
    first.unmount();
    await i18n.changeLanguage('es');
    try {
      renderAt(<Route path="/listings/us/:state/:city/:type" component={ListingsCity} />, path);
      expect(await screen.findByRole('heading', { level: 2, name: '10.000+ anuncios' })).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('says the exact number below the cap', async () => {
    server.use(
      http.get('/api/users-ads-aggregate/us/:type', () => apiJson('GET /api/users-ads-aggregate/us/:listingType', { locations: [] })),
      http.get('/api/listings', () => apiJson('GET /api/listings', { ads: [makeCard({ title: 'One of very many ads' })], total: 9_999, page: 1, pageSize: 20 })),
    );
    renderAt(<Route path="/listings/us/:state/:city/:type" component={ListingsCity} />, '/listings/us/new-york/new-york-city/female-escorts');
    expect(await screen.findByRole('heading', { level: 2, name: '9,999 ads' })).toBeTruthy();
  });
});
