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

// Taking a whole state (or a page of cities) off the site hides every ad there at once, while its
// owners' paid days run on: one stray click on a table of 51 switches must not do it. It is asked
// first, naming the state, as the master's user screens do; enabling needs no confirmation.

const STATES: State[] = [
  { id: 'ca', name: 'California', code: 'CA', slug: 'california', countryCode: 'US', enabled: true },
  { id: 'tx', name: 'Texas', code: 'TX', slug: 'texas', countryCode: 'US', enabled: false },
];
const CITIES: City[] = [
  { id: '5368361', stateId: 'ca', name: 'Los Angeles', slug: 'los-angeles', population: 3_898_747, latitude: 34.05, longitude: -118.24, enabled: true },
  { id: '5391811', stateId: 'ca', name: 'San Diego', slug: 'san-diego', population: 1_386_932, latitude: 32.72, longitude: -117.16, enabled: true },
];

/** The locations API; returns the changes sent. */
function locationsServer() {
  const changes: unknown[] = [];
  server.use(
    http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
    http.get('/api/admin/get-cities-by-state', ({ request }) => {
      const q = new URL(request.url).searchParams;
      const cities = CITIES.filter((c) => c.stateId === q.get('stateId'));
      return apiJson('GET /api/admin/get-cities-by-state', { cities, total: cities.length, page: 1, pageSize: 25 });
    }),
    http.post('/api/admin/set-status-state-cities', async ({ request }) => {
      const body = (await request.json()) as { cityIds?: string[] };
      changes.push(body);
      return apiJson('POST /api/admin/set-status-state-cities', { updated: body.cityIds?.length ?? 1 });
    }),
  );
  return changes;
}

const switchOf = (name: string) => screen.getByRole('switch', { name: `${name} enabled` }) as HTMLInputElement;
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('admin locations: taking places off the site', () => {
  it('asks, naming the state, before a click on its switch disables it; cancelling sends nothing', async () => {
    const changes = locationsServer();
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    await user.click(await screen.findByRole('switch', { name: 'California enabled' }));
    await settle();
    expect(changes, 'the state was disabled by one click, without a confirmation').toEqual([]);
    const dialog = screen.getByRole('dialog', { name: 'Take California off the site?' });
    expect(dialog.textContent).toContain('No ad in California shows while the state is disabled');
    expect(switchOf('California').checked).toBe(true);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await settle();
    expect(changes).toEqual([]);
    expect(switchOf('California').checked).toBe(true);

    await user.click(switchOf('California'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disable California' }));
    await waitFor(() => expect(switchOf('California').checked).toBe(false));
    expect(changes).toEqual([{ stateId: 'ca', enabled: false }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('enables a disabled state at once, without asking', async () => {
    const changes = locationsServer();
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    await user.click(await screen.findByRole('switch', { name: 'Texas enabled' }));
    await waitFor(() => expect(switchOf('Texas').checked).toBe(true));
    expect(changes).toEqual([{ stateId: 'tx', enabled: true }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before "Disable all on this page", naming the state and how many cities, in the page’s language', async () => {
    const changes = locationsServer();
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    await user.click(await screen.findByRole('button', { name: 'Cities of California' }));
    await screen.findByRole('switch', { name: 'San Diego enabled' });
    await user.click(screen.getByRole('button', { name: 'Disable all on this page' }));
    await settle();
    expect(changes).toEqual([]);
    const dialog = screen.getByRole('dialog', { name: 'Disable 2 cities of California?' });

    await i18n.changeLanguage('es');
    await waitFor(() => expect(screen.getByRole('dialog', { name: '¿Desactivar 2 ciudades de California?' })).toBe(dialog));
    await user.click(within(dialog).getByRole('button', { name: 'Desactivar las ciudades' }));
    const citySwitch = (name: string) => screen.getByRole('switch', { name: `${name} activada` }) as HTMLInputElement;
    await waitFor(() => expect(citySwitch('San Diego').checked).toBe(false));
    expect(citySwitch('Los Angeles').checked).toBe(false);
    expect(changes).toEqual([{ stateId: 'ca', cityIds: ['5368361', '5391811'], enabled: false }]);
  });
});
