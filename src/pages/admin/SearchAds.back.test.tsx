import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { sessionStore } from '../../state/session';
import type { ModAd } from '../../api/moderation';
import SearchAds from './SearchAds';

const ad = (i: number): ModAd => ({
  id: `ad${i}`,
  title: `Harbour walks ${i}`,
  status: 'approved',
  listingType: 'female_esc',
  phone: '+12125550142',
  place: 'New York City, NY',
  thumbUrl: null,
  photoCount: 1,
  createdAt: '2026-01-10T12:00:00.000Z',
  publishedAt: '2026-01-11T12:00:00.000Z',
  expiresAt: '2026-02-10T12:00:00.000Z',
  rejectionReason: null,
  rejectionCategory: null,
  deletedAt: null,
  owner: { id: `u${i}`, email: `owner${i}@example.com`, nickname: `owner${i}`, status: 'approved', deleted: false },
  held: false,
});

/** 45 ads; a query names one owner's; every request recorded. */
function searchServer() {
  const queries: Record<string, string>[] = [];
  server.use(
    http.get('/api/admin/search-ads', ({ request }) => {
      const q = Object.fromEntries(new URL(request.url).searchParams);
      queries.push(q);
      const all = Array.from({ length: 45 }, (_, i) => ad(i + 1)).filter((a) => !q.query || a.owner.email === q.query);
      const page = Number(q.page);
      return apiJson('GET /api/admin/search-ads', { ads: all.slice((page - 1) * 20, page * 20), total: all.length, page, pageSize: 20 });
    }),
    http.get('/api/admin/get-legal-holds', () => apiJson('GET /api/admin/get-legal-holds', { holds: [], total: 0, page: 1, pageSize: 50 })),
  );
  return queries;
}

const box = () => screen.getByLabelText<HTMLInputElement>('Ad id, words, phone, e-mail or nickname');
const statusBox = () => screen.getByLabelText<HTMLSelectElement>('Status');

describe('search screen: the search lives in the address', () => {
  it('a search run, then the owner opened and Back: the same words, status and results', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const queries = searchServer();
    const ue = userEvent.setup();
    const first = renderAt(<SearchAds />, '/admin/dashboard/admin/search-ads');
    expect(await screen.findByText('45 ads found')).toBeTruthy();
    await ue.type(box(), ' owner7@example.com ');
    await ue.selectOptions(statusBox(), 'approved');
    await ue.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('1 ad found')).toBeTruthy();
    const searched = first.currentPath();
    expect(searched).toBe('/admin/dashboard/admin/search-ads?query=owner7%40example.com&status=approved');
    first.unmount(); // the owner's user screen opens

    renderAt(<SearchAds />, searched); // Back (or a reload, or the link shared)
    expect(await screen.findByText('1 ad found')).toBeTruthy();
    expect({ box: box().value, status: statusBox().value }).toEqual({ box: 'owner7@example.com', status: 'approved' });
    expect(queries.at(-1)).toEqual({ query: 'owner7@example.com', status: 'approved', page: '1', pageSize: '20' });
    expect(screen.getByText('Harbour walks 7')).toBeTruthy();
  });

  it('a page turned is in the address too, and searching again reads the list again', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const queries = searchServer();
    const ue = userEvent.setup();
    const first = renderAt(<SearchAds />, '/admin/dashboard/admin/search-ads?status=approved');
    expect(await screen.findByText('Harbour walks 1')).toBeTruthy();
    await ue.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Harbour walks 21')).toBeTruthy();
    expect(first.currentPath()).toBe('/admin/dashboard/admin/search-ads?status=approved&page=2');
    first.unmount();

    renderAt(<SearchAds />, '/admin/dashboard/admin/search-ads?status=approved&page=2');
    expect(await screen.findByText('Harbour walks 21')).toBeTruthy();
    expect(queries.at(-1)).toEqual({ status: 'approved', page: '2', pageSize: '20' });
    const before = queries.length;
    await ue.click(screen.getByRole('button', { name: 'Search' })); // same words and status: its first page, read again
    expect(await screen.findByText('Harbour walks 1')).toBeTruthy();
    expect(queries.length).toBe(before + 1);
    expect(queries.at(-1)).toEqual({ status: 'approved', page: '1', pageSize: '20' });
  });
});
