import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { sessionStore } from '../../state/session';
import { pageViewsQuery } from '../../state/moderation';
import PageViews from './PageViews';

afterEach(() => vi.useRealTimers());

describe('page-views screen around midnight UTC', () => {
  // The bars and the table are the days the server counted (its last N whole UTC days, ending on the
  // `today` it sends), so they add up to the total above them: laid out by the browser's clock, a
  // staff computer two minutes fast at 00:01 UTC dropped the oldest day and drew an empty "tomorrow".
  it('draws the days the server counted, whatever the browser clock says', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-29T00:01:30.000Z') }); // server: 2026-11-28T23:59:30Z
    sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    pageViewsQuery.days = 7;
    server.use(
      http.get('/api/admin/get-page-views', () =>
        apiJson('GET /api/admin/get-page-views', {
          days: 7,
          today: '2026-11-28',
          total: 10,
          byDay: [
            { day: '2026-11-22', count: 4 },
            { day: '2026-11-28', count: 6 },
          ],
          topPaths: [],
          topAds: [],
          byLocale: [{ locale: 'en', count: 10 }],
        }),
      ),
    );
    const view = renderAt(<PageViews />, '/admin/dashboard/admin/page-views');
    expect(await screen.findByText('10 views in the last 7 days')).toBeTruthy();
    const drawn = [...view.container.querySelectorAll('svg rect')].map((r) => r.getAttribute('data-day'));
    expect(drawn).toEqual(['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']);
  });
});
