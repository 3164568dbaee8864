import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, STATES } from './testing';
import CreateAds from '../../pages/dashboard/CreateAds';

/** What a screen reader reads after a field's name: the texts its aria-describedby points at. */
function description(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('ad fields: errors tied to their fields', () => {
  it('the listing type and the age, both selects, are described by their errors after a submit', async () => {
    server.use(
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
    );
    const user = userEvent.setup();
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    const type = screen.getByRole('combobox', { name: 'Listing type' });
    const age = screen.getByRole('combobox', { name: 'Age' });
    expect(description(age)).toBe('Advertisers must be 21 or older.');

    await user.click(screen.getByRole('button', { name: 'Post ad' }));

    expect(type.getAttribute('aria-invalid')).toBe('true');
    expect(description(type)).toBe('Choose a listing type.');
    expect(age.getAttribute('aria-invalid')).toBe('true');
    expect(description(age)).toBe('Choose an age. Advertisers must be 21 or older.');
  });
});
