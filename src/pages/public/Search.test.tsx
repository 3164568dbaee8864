import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
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
});
