import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, STATES } from './testing';
import CreateAds from '../../pages/dashboard/CreateAds';

// The title's and description's counters count characters as the rules do (an emoji is one), and
// the title box lets a whole title of emoji be typed (the browser's maxLength counts UTF-16 units).
describe('ad fields: character counters', () => {
  it('count an emoji as one character, and the title box takes 100 of them', () => {
    server.use(
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
    );
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    const title = screen.getByLabelText<HTMLInputElement>('Title');
    fireEvent.change(title, { target: { value: `Hot new girl in town ${'💋'.repeat(40)}` } });
    expect(screen.getByText(/Title: 10 to 100 characters/).textContent).toContain('(61 characters)');
    expect(title.maxLength).toBeGreaterThanOrEqual('🔥'.repeat(100).length);
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: '💋'.repeat(30) } });
    expect(screen.getByText(/Description: 50 to 5000 characters/).textContent).toContain('(30 characters)');
  });
});
