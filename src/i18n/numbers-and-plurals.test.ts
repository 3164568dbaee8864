import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { Route } from 'wouter';
import { createElement } from 'react';
import i18n from 'i18next';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { renderAt } from '../test/render';
import ListingsUs from '../pages/public/ListingsUs';

describe('numbers on the public pages, written the page language’s way', () => {
  // A count of ads is written with the language's digit grouping, as the capped count
  // ("10.000+ anuncios") and money are: 123456 reads "123.456 anuncios" in Spanish. Every
  // {{count}} of the locale files is {{count, number}}.
  it('writes a state’s ad count with Spanish digit grouping on /es/listings/us', async () => {
    server.use(
      http.get('/api/states-from-country', () =>
        apiJson('GET /api/states-from-country', {
          states: [{ id: 'ca', name: 'California', code: 'CA', slug: 'california', countryCode: 'US', enabled: true }],
        }),
      ),
      http.get('/api/users-ads-aggregate/us/:type/states', () =>
        apiJson('GET /api/users-ads-aggregate/us/:listingType/states', { states: [{ stateId: 'ca', stateSlug: 'california', count: 123456 }] }),
      ),
    );
    await i18n.changeLanguage('es');
    renderAt(createElement(Route, { path: '/listings/us', component: ListingsUs }), '/listings/us?type=female-escorts');
    const first = await screen.findByRole('link', { name: 'California' });
    const row = within(first.closest('ul')!).getAllByRole('listitem')[0].textContent;
    expect(row).toBe('California (123.456 anuncios)');
  });
});

describe('plural forms of Spanish and Portuguese', () => {
  // Spanish and Portuguese have a CLDR "many" form (1,000,000, 2,000,000 …); a key without it
  // falls back to English (the Spanish reports screen said "1000000 reports"). locales.test.ts
  // checks every plural has it.
  it('words the reports total of the Spanish reports screen in Spanish for a million reports', async () => {
    expect(new Intl.PluralRules('es').select(1_000_000)).toBe('many');
    await i18n.loadNamespaces('pages');
    expect(i18n.getFixedT('es', 'pages')('adminReports.total', { count: 1_000_000 })).toBe('1.000.000 denuncias');
  });
});
