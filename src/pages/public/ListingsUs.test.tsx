import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route } from 'wouter';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import ListingsUs from './ListingsUs';

// The country page for one type: every enabled state, each with its number of ads of that type,
// read from the states endpoint (51 rows), never from the national list of every city.

const STATES = [
  { id: 'ca', name: 'California', slug: 'california', ads: { female_esc: 12, female_rub: 0 } },
  { id: 'ny', name: 'New York', slug: 'new-york', ads: { female_esc: 7, female_rub: 3 } },
  { id: 'vt', name: 'Vermont', slug: 'vermont', ads: { female_esc: 0, female_rub: 1 } },
];

function api() {
  const asked: string[] = [];
  server.use(
    http.get('/api/states-from-country', () =>
      apiJson('GET /api/states-from-country', {
        states: STATES.map((s) => ({ id: s.id, name: s.name, code: s.id.toUpperCase(), slug: s.slug, countryCode: 'US', enabled: true })),
      }),
    ),
    http.get('/api/users-ads-aggregate/us/:type/states', ({ params }) => {
      const type = params.type as 'female_esc' | 'female_rub';
      asked.push(`states:${type}`);
      const states = STATES.filter((s) => s.ads[type] > 0)
        .sort((a, b) => b.ads[type] - a.ads[type])
        .map((s) => ({ stateId: s.id, stateSlug: s.slug, count: s.ads[type] }));
      return apiJson('GET /api/users-ads-aggregate/us/:listingType/states', { states });
    }),
    http.get('/api/users-ads-aggregate/us/:type', ({ params }) => {
      asked.push(`cities:${String(params.type)}`);
      return HttpResponse.json({ message: 'not this one', code: 'test.unexpected' }, { status: 500 });
    }),
  );
  return asked;
}

describe('country page by type', () => {
  for (const [slug, type] of [
    ['female-escorts', 'female_esc'],
    ['female-bodyrubs', 'female_rub'],
  ] as const) {
    it(`lists every state with its number of ${slug}, 0 where it has none, from the states endpoint only`, async () => {
      const asked = api();
      renderAt(<Route path="/listings/us" component={ListingsUs} />, `/listings/us?type=${slug}`);
      const first = await screen.findByRole('link', { name: 'California' });
      const rows = within(first.closest('ul')!)
        .getAllByRole('listitem')
        .map((li) => li.textContent);
      const ads = (n: number) => (n === 0 ? 'no ads' : n === 1 ? '1 ad' : `${n} ads`);
      expect(rows).toEqual(STATES.map((s) => `${s.name} (${ads(s.ads[type])})`));
      expect(first.getAttribute('href')).toBe(`/listings/us/california?type=${slug}`);
      expect(asked).toEqual([`states:${type}`]);
    });
  }
});
