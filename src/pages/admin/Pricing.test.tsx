import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import type { Price } from '../../api/pricing';
import type { ErrorBody } from '../../../contract/errors/index.ts';
import Pricing from './Pricing';

const AD: Price = { id: 'p-ad', kind: 'ad', listingType: 'female_esc', priceCents: 1500, durationDays: 30 };
const BUMP: Price = { id: 'p-bump', kind: 'bump', listingType: 'female_esc', priceCents: 300, durationDays: null };

const CHANGED: ErrorBody = { message: 'This price changed meanwhile: nothing was saved. The list shows it as it is now.', code: 'pricing.changed_meanwhile' };

/**
 * A fake of the pricing API over a mutable list: it stores what it is sent and answers the stored
 * row; as the server does, it refuses a save whose `from` is not the price as stored (409).
 */
function pricingServer(opts: { gone?: string } = {}) {
  const rows = new Map([AD, BUMP].map((p) => [p.id, { ...p }]));
  const bodies: unknown[] = [];
  const reads = { count: 0 };
  server.use(
    http.get('/api/admin/get-all-pricing', () => {
      reads.count++;
      return apiJson('GET /api/admin/get-all-pricing', { pricing: [...rows.values()].map((r) => ({ ...r })) });
    }),
    http.post('/api/admin/set-price-by-id', async ({ request }) => {
      const body = (await request.json()) as {
        id: string;
        priceCents: number;
        durationDays?: number;
        from?: { priceCents: number; durationDays: number | null };
      };
      bodies.push(body);
      if (body.id === opts.gone) {
        const gone: ErrorBody = { message: 'Price not found.', code: 'pricing.not_found' };
        return apiJson('POST /api/admin/set-price-by-id', gone as never, 404 as never); // checked against the route's 4xx schema at run time
      }
      if (body.priceCents > 1_000_000) {
        const refused: ErrorBody = {
          message: 'Price must be a whole number of cents from 0 to 1000000.',
          code: 'pricing.price_out_of_range',
          params: { field: 'priceCents', max: 1_000_000 },
        };
        return apiJson('POST /api/admin/set-price-by-id', refused as never, 400); // checked against the route's 4xx schema at run time
      }
      const row = rows.get(body.id)!;
      if (body.from && (body.from.priceCents !== row.priceCents || body.from.durationDays !== row.durationDays)) {
        return apiJson('POST /api/admin/set-price-by-id', CHANGED as never, 409); // checked against the route's 4xx schema at run time
      }
      row.priceCents = body.priceCents;
      if (body.durationDays !== undefined) row.durationDays = body.durationDays;
      return apiJson('POST /api/admin/set-price-by-id', { pricing: { ...row } });
    }),
  );
  return { bodies, rows, reads };
}

describe('admin pricing', () => {
  it('saves an ad price with its days and a bump price without days, each row on its own', async () => {
    const srv = pricingServer();
    const user = userEvent.setup();
    renderAt(<Pricing />, '/admin/dashboard/admin/pricing');

    const adPrice = await screen.findByRole('textbox', { name: 'Price of Ad – Female escorts' });
    expect((adPrice as HTMLInputElement).value).toBe('15.00');
    expect((screen.getByRole('textbox', { name: 'Days of Ad – Female escorts' }) as HTMLInputElement).value).toBe('30');
    expect(screen.queryByRole('textbox', { name: 'Days of Bump – Female escorts' })).toBeNull();

    await user.clear(adPrice);
    await user.type(adPrice, '25');
    const adDays = screen.getByRole('textbox', { name: 'Days of Ad – Female escorts' });
    await user.clear(adDays);
    await user.type(adDays, '14');
    await user.click(screen.getByRole('button', { name: 'Save Ad – Female escorts' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved: $25.00.');

    const bumpPrice = screen.getByRole('textbox', { name: 'Price of Bump – Female escorts' });
    await user.clear(bumpPrice);
    await user.type(bumpPrice, '4.50');
    await user.click(screen.getByRole('button', { name: 'Save Bump – Female escorts' }));
    expect(await screen.findByText('Saved: $4.50.')).toBeTruthy();
    expect(srv.bodies).toEqual([
      { id: 'p-ad', priceCents: 2500, durationDays: 14, from: { priceCents: 1500, durationDays: 30 } },
      { id: 'p-bump', priceCents: 450, from: { priceCents: 300, durationDays: null } },
    ]);
  });

  it('writes a price with the page’s decimal mark in Spanish, and saves it unchanged as it shows it', async () => {
    const srv = pricingServer();
    await i18n.changeLanguage('es');
    const user = userEvent.setup();
    renderAt(<Pricing />, '/es/admin/dashboard/admin/pricing');
    const adPrice = await screen.findByRole('textbox', { name: 'Precio de Anuncio – Escorts mujeres' });
    expect((adPrice as HTMLInputElement).value).toBe('15,00');
    expect((screen.getByRole('textbox', { name: 'Precio de Destacado – Escorts mujeres' }) as HTMLInputElement).value).toBe('3,00');
    await user.click(screen.getByRole('button', { name: 'Guardar Anuncio – Escorts mujeres' }));
    expect((await screen.findByRole('status')).textContent).toBe('Guardado: 15,00\u00a0US$.');
    expect(srv.bodies).toEqual([{ id: 'p-ad', priceCents: 1500, durationDays: 30, from: { priceCents: 1500, durationDays: 30 } }]);
  });

  it('shows the server’s refusal on the row', async () => {
    pricingServer({ gone: 'p-bump' });
    const user = userEvent.setup();
    renderAt(<Pricing />, '/admin/dashboard/admin/pricing');
    const bumpPrice = await screen.findByRole('textbox', { name: 'Price of Bump – Female escorts' });
    await user.clear(bumpPrice);
    await user.type(bumpPrice, '5');
    await user.click(screen.getByRole('button', { name: 'Save Bump – Female escorts' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Price not found.');
  });

  it('refuses a price over $10,000 before sending it, in dollars (not the server’s cents)', async () => {
    const srv = pricingServer();
    const user = userEvent.setup();
    renderAt(<Pricing />, '/admin/dashboard/admin/pricing');
    const bumpPrice = await screen.findByRole('textbox', { name: 'Price of Bump – Female escorts' });
    await user.clear(bumpPrice);
    await user.type(bumpPrice, '10000.01');
    await user.click(screen.getByRole('button', { name: 'Save Bump – Female escorts' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Enter an amount from $0.00 to $10,000.00 in dollars, for example 12.50.');
    expect(alert.textContent).not.toContain('1000000');
    expect(srv.bodies).toEqual([]);

    await user.clear(bumpPrice);
    await user.type(bumpPrice, '10000');
    await user.click(screen.getByRole('button', { name: 'Save Bump – Female escorts' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved: $10,000.00.');
    expect(srv.bodies).toEqual([{ id: 'p-bump', priceCents: 1_000_000, from: { priceCents: 300, durationDays: null } }]);
  });

  it('a save over another admin’s change is refused: says so, saves nothing, shows the price as it is now', async () => {
    const srv = pricingServer();
    const user = userEvent.setup();
    renderAt(<Pricing />, '/admin/dashboard/admin/pricing');
    const adPrice = await screen.findByRole('textbox', { name: 'Price of Ad – Female escorts' });
    Object.assign(srv.rows.get('p-ad')!, { priceCents: 9900, durationDays: 7 }); // another admin, meanwhile
    await user.clear(adPrice);
    await user.type(adPrice, '16');
    const reads = srv.reads.count;
    await user.click(screen.getByRole('button', { name: 'Save Ad – Female escorts' }));

    expect((await screen.findByRole('alert')).textContent).toBe('This price changed meanwhile: nothing was saved. The list shows it as it is now.');
    expect(srv.bodies).toEqual([{ id: 'p-ad', priceCents: 1600, durationDays: 30, from: { priceCents: 1500, durationDays: 30 } }]);
    expect(srv.rows.get('p-ad')).toMatchObject({ priceCents: 9900, durationDays: 7 });
    await waitFor(() => expect((adPrice as HTMLInputElement).value).toBe('99.00'));
    expect(srv.reads.count).toBe(reads + 1);
    expect((screen.getByRole('textbox', { name: 'Days of Ad – Female escorts' }) as HTMLInputElement).value).toBe('7');
    expect(screen.getByRole('alert').textContent).toBe('This price changed meanwhile: nothing was saved. The list shows it as it is now.');

    // Saved again from the price as it is now, it goes through.
    await user.clear(adPrice);
    await user.type(adPrice, '16');
    await user.click(screen.getByRole('button', { name: 'Save Ad – Female escorts' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved: $16.00.');
    expect(srv.bodies.at(-1)).toEqual({ id: 'p-ad', priceCents: 1600, durationDays: 7, from: { priceCents: 9900, durationDays: 7 } });
  });
});
