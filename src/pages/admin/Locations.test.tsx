import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import type { City, State } from '../../api/locations';
import Locations from './Locations';

const STATES: State[] = [
  { id: 'ny', name: 'New York', code: 'NY', slug: 'new-york', countryCode: 'US', enabled: true },
  { id: 'tx', name: 'Texas', code: 'TX', slug: 'texas', countryCode: 'US', enabled: false },
];
const CITIES: City[] = [
  { id: '5128581', stateId: 'ny', name: 'New York City', slug: 'new-york-city', population: 8_804_190, latitude: 40.71, longitude: -74.01, enabled: true },
  { id: '5110629', stateId: 'ny', name: 'Buffalo', slug: 'buffalo', population: 278_349, latitude: 42.89, longitude: -78.88, enabled: false },
];

/** A fake of the locations API; every answer is one the server could send. */
function locationsServer(opts: { refuseCities?: boolean } = {}) {
  const statesQueries: URLSearchParams[] = [];
  const cityQueries: URLSearchParams[] = [];
  const changes: unknown[] = [];
  server.use(
    http.get('/api/states-from-country', ({ request }) => {
      statesQueries.push(new URL(request.url).searchParams);
      return apiJson('GET /api/states-from-country', { states: STATES });
    }),
    http.get('/api/admin/get-cities-by-state', ({ request }) => {
      const q = new URL(request.url).searchParams;
      cityQueries.push(q);
      const query = (q.get('query') ?? '').toLowerCase();
      const cities = CITIES.filter((c) => c.stateId === q.get('stateId') && c.name.toLowerCase().includes(query));
      return apiJson('GET /api/admin/get-cities-by-state', { cities, total: cities.length, page: Number(q.get('page')), pageSize: Number(q.get('pageSize')) });
    }),
    http.post('/api/admin/set-status-state-cities', async ({ request }) => {
      const body = (await request.json()) as { stateId: string; cityIds?: string[] };
      changes.push(body);
      const route = 'POST /api/admin/set-status-state-cities';
      if (opts.refuseCities && body.cityIds) {
        const params = { state: 'New York', cities: body.cityIds.join(', ') };
        return apiJson(
          route,
          { message: `City not found in New York: ${params.cities}.`, code: 'locations.cities_not_in_state', params } as never,
          404 as never,
        );
      }
      return apiJson(route, { updated: body.cityIds?.length ?? 1 });
    }),
  );
  return { statesQueries, cityQueries, changes };
}

const switchOf = (name: string) => screen.getByRole('switch', { name: `${name} enabled` }) as HTMLInputElement;
/** Presses the confirming button of the open dialog (Locations.confirm.test.tsx checks the dialog itself). */
const confirmWith = async (user: ReturnType<typeof userEvent.setup>, name: string) =>
  user.click(within(await screen.findByRole('dialog')).getByRole('button', { name }));

describe('admin locations', () => {
  it('lists every state, disabled ones too, and enables or disables one', async () => {
    const srv = locationsServer();
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    await screen.findByRole('switch', { name: 'Texas enabled' });
    expect(srv.statesQueries[0].get('isAll')).toBe('true');
    expect(switchOf('New York').checked).toBe(true);
    expect(switchOf('Texas').checked).toBe(false);

    await user.click(switchOf('Texas'));
    await waitFor(() => expect(switchOf('Texas').checked).toBe(true));
    expect(srv.changes).toEqual([{ stateId: 'tx', enabled: true }]);
    await user.click(switchOf('New York'));
    await confirmWith(user, 'Disable New York');
    await waitFor(() => expect(switchOf('New York').checked).toBe(false));
    expect(srv.changes.at(-1)).toEqual({ stateId: 'ny', enabled: false });
  });

  it("pages and searches a state's cities and toggles them", async () => {
    const srv = locationsServer();
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    await user.click(await screen.findByRole('button', { name: 'Cities of New York' }));
    await screen.findByRole('switch', { name: 'Buffalo enabled' });
    expect(screen.getByRole('heading', { name: 'Cities of New York' })).toBeTruthy();
    expect(Object.fromEntries(srv.cityQueries[0])).toEqual({ stateId: 'ny', page: '1', pageSize: '25' });
    expect(switchOf('New York City').checked).toBe(true);
    expect(switchOf('Buffalo').checked).toBe(false);

    await user.click(switchOf('Buffalo'));
    await waitFor(() => expect(switchOf('Buffalo').checked).toBe(true));
    expect(srv.changes).toEqual([{ stateId: 'ny', cityIds: ['5110629'], enabled: true }]);

    await user.click(screen.getByRole('button', { name: 'Disable all on this page' }));
    await confirmWith(user, 'Disable the cities');
    await waitFor(() => expect(switchOf('New York City').checked).toBe(false));
    expect(switchOf('Buffalo').checked).toBe(false);
    expect(srv.changes.at(-1)).toEqual({ stateId: 'ny', cityIds: ['5128581', '5110629'], enabled: false });

    await user.type(screen.getByRole('searchbox', { name: 'Search cities' }), 'buf');
    await waitFor(() => expect(srv.cityQueries.at(-1)!.get('query')).toBe('buf'), { timeout: 5000 });
    expect(srv.cityQueries.at(-1)!.get('page')).toBe('1');
    await waitFor(() => expect(screen.queryByRole('switch', { name: 'New York City enabled' })).toBeNull());
    expect(switchOf('Buffalo')).toBeTruthy();
  });

  // "Enable/Disable all on this page" says what it did, in a status region present from the start
  // (one inserted already filled is commonly not announced); a single switch's change is not worded.
  it('announces the outcome of enabling or disabling every city on the page', async () => {
    locationsServer();
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    await user.click(await screen.findByRole('button', { name: 'Cities of New York' }));
    await screen.findByRole('switch', { name: 'Buffalo enabled' });
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('');
    await user.click(screen.getByRole('button', { name: 'Enable all on this page' }));
    await waitFor(() => expect(status.textContent).toBe('2 cities enabled'));
    expect(switchOf('Buffalo').checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Disable all on this page' }));
    await confirmWith(user, 'Disable the cities');
    await waitFor(() => expect(status.textContent).toBe('2 cities disabled'));
    await user.click(switchOf('Buffalo'));
    await waitFor(() => expect(switchOf('Buffalo').checked).toBe(true));
    expect(status.textContent).toBe('');
  });

  it('names its tables after their headings', async () => {
    locationsServer();
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    await user.click(await screen.findByRole('button', { name: 'Cities of New York' }));
    await screen.findByRole('switch', { name: 'Buffalo enabled' });
    expect(screen.getByRole('table', { name: 'States' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Cities of New York' })).toBeTruthy();
    expect(screen.queryAllByRole('table', { name: '' })).toEqual([]);
  });

  it("shows the server's refusal in the page's language and leaves the switch as it was", async () => {
    locationsServer({ refuseCities: true });
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    await user.click(await screen.findByRole('button', { name: 'Cities of New York' }));
    await screen.findByRole('switch', { name: 'Buffalo enabled' });
    const buffalo = switchOf('Buffalo');

    await user.click(buffalo);
    expect((await screen.findByRole('alert')).textContent).toBe('City not found in New York: 5110629.');
    expect(buffalo.checked).toBe(false);

    await i18n.changeLanguage('pt');
    await user.click(buffalo);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Cidade não encontrada em New York: 5110629.'));
    expect(buffalo.checked).toBe(false);
  });
});
