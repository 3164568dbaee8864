import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { seedRouteData } from '../../app/routeStore';
import type { TransparencyMonth } from '../../api/moderation';
import Transparency from './Transparency';

const month = (m: string, over: Partial<TransparencyMonth> = {}): TransparencyMonth => ({
  month: m,
  adsReviewed: 0,
  adsApproved: 0,
  adsRejected: 0,
  rejectedByCategory: { underage_suspected: 0, trafficking_suspected: 0, prohibited_content: 0, spam: 0, misleading: 0, other: 0, uncategorized: 0 },
  adsDisabled: 0,
  adsDisabledAfterReport: 0,
  reportsByKind: { ad: 0, trafficking: 0 },
  lawEnforcementRequests: 0,
  accountsSuspended: 0,
  ...over,
});

describe('transparency page', () => {
  it('shows each month’s figures in a labelled table, in the page’s language', async () => {
    server.use(
      http.get('/api/transparency', () =>
        apiJson('GET /api/transparency', {
          generatedAt: '2026-01-20T09:00:00.000Z',
          months: [
            month('2026-01', { adsReviewed: 1234, adsApproved: 1200, adsRejected: 34, rejectedByCategory: { ...month('x').rejectedByCategory, spam: 30, underage_suspected: 4 }, adsDisabled: 7, adsDisabledAfterReport: 5, reportsByKind: { ad: 12, trafficking: 3 }, lawEnforcementRequests: 2, accountsSuspended: 6 }),
            month('2025-12'),
          ],
        }),
      ),
    );
    renderAt(<Transparency />, '/transparency');
    expect(await screen.findByRole('heading', { level: 1, name: 'Transparency report' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Moderation per month (newest first)' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Measure', 'January 2026', 'December 2025']);
    const row = (name: string) => within(table).getByRole('row', { name: new RegExp(`^${name}`) });
    expect(within(row('Ads reviewed')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['1,234', '0']);
    expect(within(row('of which: spam or scam')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['30', '0']);
    expect(within(row('of which: after a report')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['5', '0']);
    expect(within(row('Law-enforcement requests received')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['2', '0']);
    expect(within(row('Accounts suspended')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['6', '0']);
  });

  it('shows the figures the server rendered it with (its embedded data) without asking for them again', async () => {
    let asked = 0;
    server.use(
      http.get('/api/transparency', () => {
        asked++;
        return apiJson('GET /api/transparency', { generatedAt: '2026-01-20T09:00:00.000Z', months: [] });
      }),
    );
    seedRouteData('transparency', { status: 200, data: { generatedAt: '2026-01-20T09:00:00.000Z', months: [month('2026-01', { accountsSuspended: 6 })] } });
    renderAt(<Transparency />, '/transparency');
    const table = screen.getByRole('table', { name: 'Moderation per month (newest first)' });
    expect(within(within(table).getByRole('row', { name: /^Accounts suspended/ })).getAllByRole('cell').map((c) => c.textContent)).toEqual(['6']);
    // In UTC whatever the reader's time zone: the browser's first render must be the server's.
    expect(screen.getByText(/January 20, 2026.*9:00.*UTC/)).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toBe(0);
  });

  it('speaks Spanish and Portuguese', async () => {
    server.use(http.get('/api/transparency', () => apiJson('GET /api/transparency', { generatedAt: '2026-01-20T09:00:00.000Z', months: [month('2026-01')] })));
    await i18n.changeLanguage('es');
    const es = renderAt(<Transparency />, '/es/transparency');
    expect(await screen.findByRole('heading', { level: 1, name: 'Informe de transparencia' })).toBeTruthy();
    expect(await screen.findByRole('row', { name: /^Anuncios revisados/ })).toBeTruthy();
    es.unmount();
    await i18n.changeLanguage('pt');
    renderAt(<Transparency />, '/pt/transparency');
    expect(await screen.findByRole('heading', { level: 1, name: 'Relatório de transparência' })).toBeTruthy();
    expect(await screen.findByRole('row', { name: /^Contas suspensas/ })).toBeTruthy();
  });
});
