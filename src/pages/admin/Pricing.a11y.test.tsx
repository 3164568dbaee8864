import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import type { Price } from '../../api/pricing';
import Pricing from './Pricing';

const AD: Price = { id: 'p-ad', kind: 'ad', listingType: 'female_esc', priceCents: 1500, durationDays: 30 };
const BUMP: Price = { id: 'p-bump', kind: 'bump', listingType: 'female_esc', priceCents: 300, durationDays: null };

function pricingServer() {
  server.use(http.get('/api/admin/get-all-pricing', () => apiJson('GET /api/admin/get-all-pricing', { pricing: [{ ...AD }, { ...BUMP }] })));
}

describe('admin pricing, for screen-reader users', () => {
  // The rule a save broke describes the field it refuses, so tabbing back to it says what is wrong.
  it('ties the broken rule to the field it refuses', async () => {
    pricingServer();
    const user = userEvent.setup();
    renderAt(<Pricing />, '/admin/dashboard/admin/pricing');
    const price = await screen.findByRole('textbox', { name: 'Price of Ad – Female escorts' });
    const days = screen.getByRole('textbox', { name: 'Days of Ad – Female escorts' });
    await user.clear(price);
    await user.type(price, 'abc');
    await user.click(screen.getByRole('button', { name: 'Save Ad – Female escorts' }));
    await screen.findByRole('alert');
    expect(price.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Price of Ad – Female escorts', description: /Enter an amount from \$0\.00/ })).toBe(price);
    expect(days.getAttribute('aria-describedby')).toBeNull();
  });

  it('names its table', async () => {
    pricingServer();
    renderAt(<Pricing />, '/admin/dashboard/admin/pricing');
    await screen.findByRole('textbox', { name: 'Price of Ad – Female escorts' });
    expect(screen.getByRole('table', { name: 'Pricing' })).toBeTruthy();
  });
});
