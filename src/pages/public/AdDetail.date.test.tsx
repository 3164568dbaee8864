import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http } from 'msw';
import { Route } from 'wouter';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { makeAd } from '../../components/market/testing';
import AdDetail from './AdDetail';

describe('ad page: the "Last updated" date', () => {
  // A date shown to US visitors names its zone: an ad in Los Angeles bumped on Nov 28 at 5 PM PST
  // (2026-11-29T01:00Z) read "Last updated Nov 29, 2026", tomorrow's date, with nothing saying UTC.
  it('does not show a bare UTC date (tomorrow, for a Los Angeles evening bump) without naming its zone', async () => {
    const ad = makeAd({
      title: 'Evening companion in Los Angeles',
      state: { id: 'st-ca', name: 'California', slug: 'california' },
      city: { id: 'ct-la', name: 'Los Angeles', slug: 'los-angeles' },
      bumpedAt: '2026-11-29T01:00:00.000Z',
    });
    server.use(http.get('/api/ads/:id', () => apiJson('GET /api/ads/:id', { ad })));
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${ad.id}`);
    await screen.findByRole('heading', { level: 1, name: 'Evening companion in Los Angeles' });
    const shown = document.querySelector(`time[datetime="${ad.bumpedAt}"]`)?.textContent ?? '';
    expect(shown).toBe('Nov 29, 2026 UTC');
  });
});
