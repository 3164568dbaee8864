import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { STATES, makeCard } from '../../components/market/testing';
import type { ErrorBody } from '../../../contract/errors/index.ts';
import Search from './Search';

describe('search page', () => {
  it('requires search criteria, then searches with the filters from the URL', async () => {
    const seen: URLSearchParams[] = [];
    server.use(
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
      http.get('/api/search', ({ request }) => {
        const q = new URL(request.url).searchParams;
        seen.push(q);
        return apiJson('GET /api/search', { ads: [makeCard({ title: 'Blonde and friendly in Texas' })], total: 1, page: 1, pageSize: 20 });
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<Search />, '/search');
    expect(screen.getByText('You must enter search criteria')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).disabled).toBe(true);
    expect(seen).toHaveLength(0);

    await user.type(screen.getByLabelText('Search for'), 'blonde');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Texas' })).toBeTruthy());
    await user.selectOptions(screen.getByLabelText('State'), 'texas');
    await user.selectOptions(screen.getByLabelText('Listing type'), 'female_esc');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(view.currentPath()).toBe('/search?query=blonde&state=texas&type=female_esc'));
    expect(await screen.findByText('1 ad matches “blonde”.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Blonde and friendly in Texas' })).toBeTruthy();
    expect(Object.fromEntries(seen[0])).toEqual({ query: 'blonde', state: 'texas', type: 'female_esc', page: '1' });
  });

  it('a page past the deepest the search serves is the not-found page, in the page language (as the server renders it)', async () => {
    const TOO_FAR: ErrorBody = { message: 'This page is too far back. Narrow the search instead.', code: 'listings.page_too_far', params: { field: 'page' } };
    server.use(
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
      http.get('/api/search', () =>
        // checked against the 4xx schema at run time (the static type only knows numbered answers)
        apiJson('GET /api/search', TOO_FAR as never, 400),
      ),
    );
    await i18n.changeLanguage('es');
    try {
      renderAt(<Search />, '/search?query=rubia&page=51');
      expect(await screen.findByRole('heading', { level: 1, name: 'Página no encontrada' })).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  // Search counts its newest 200 matches only (SEARCH_TOTAL_CAP): at the cap the count says
  // "200+ ads match", and the pagination stops at the last page the server serves (10 of 20).
  it('says "200+ ads match" for a search at the cap, and links no page past it', async () => {
    server.use(
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
      http.get('/api/search', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return apiJson('GET /api/search', { ads: [makeCard({ title: 'Blonde and friendly in Texas' })], total: 200, page, pageSize: 20 });
      }),
    );
    const view = renderAt(<Search />, '/search?query=blonde');
    expect(await screen.findByText('200+ ads match “blonde”.')).toBeTruthy();
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByRole('link', { name: 'Page 10' }).getAttribute('href')).toBe('/search?query=blonde&page=10');
    expect(within(pages).queryByRole('link', { name: 'Page 11' })).toBeNull();
    view.unmount();
    await i18n.changeLanguage('pt');
    try {
      renderAt(<Search />, '/search?query=loira');
      expect(await screen.findByText('200+ anúncios correspondem a “loira”.')).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  // Every word is required and none is dropped: past 8 distinct words the form says so and sends nothing.
  it('refuses a ninth distinct word before searching', async () => {
    const seen: string[] = [];
    server.use(
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
      http.get('/api/search', ({ request }) => {
        seen.push(request.url);
        return apiJson('GET /api/search', { ads: [], total: 0, page: 1, pageSize: 20 });
      }),
    );
    const user = userEvent.setup();
    renderAt(<Search />, '/search');
    await user.type(screen.getByLabelText('Search for'), 'one two three four five six seven eight one');
    expect(screen.queryByText('Search for at most 8 different words.')).toBeNull();
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).disabled).toBe(false);
    await user.type(screen.getByLabelText('Search for'), ' nine');
    expect(screen.getByText('Search for at most 8 different words.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).disabled).toBe(true);
    expect(seen).toEqual([]);
  });
});
