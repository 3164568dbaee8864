import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import type { PromoCode } from '../../api/admin-pricing';
import PromoCodes from './PromoCodes';

const SPRING: PromoCode = {
  id: 'pc1',
  code: 'SPRING-20',
  amountCents: 2000,
  maxUses: 100,
  uses: 3,
  expiresAt: '2030-06-30T23:59:59.999Z',
  active: true,
  personal: false,
  createdAt: '2025-03-01T10:00:00.000Z',
};

/** The promo-code routes over `all` (paged as asked); returns the bodies saved. */
function promoServer(all: PromoCode[] = [SPRING]) {
  const saved: unknown[] = [];
  server.use(
    http.get('/api/admin/get-all-promo-codes', ({ request }) => {
      const q = new URL(request.url).searchParams;
      const page = Number(q.get('page'));
      const pageSize = Number(q.get('pageSize'));
      return apiJson('GET /api/admin/get-all-promo-codes', {
        promoCodes: all.slice((page - 1) * pageSize, page * pageSize),
        total: all.length,
        page,
        pageSize,
      });
    }),
    http.post('/api/admin/set-promo-code-by-id', async ({ request }) => {
      saved.push(await request.json());
      return apiJson('POST /api/admin/set-promo-code-by-id', { promoCode: SPRING } as never);
    }),
  );
  return saved;
}

describe('admin promo codes, for screen-reader and keyboard users', () => {
  // A form submitted with mistakes moves focus to the first invalid field, described by its error,
  // as Login, Register and the profile forms do; fixed, the next one takes it.
  it('moves focus to the first invalid field of a form submitted with mistakes', async () => {
    const saved = promoServer();
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await screen.findByText('SPRING-20');
    const amount = screen.getByRole('textbox', { name: 'Amount (USD)' });
    await user.clear(amount);
    await user.type(amount, '0');
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));
    expect(saved).toEqual([]);
    const code = screen.getByRole('textbox', { name: 'Code' });
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(code);
    expect(amount.getAttribute('aria-invalid')).toBe('true');

    await user.type(code, 'SUMMER-10');
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));
    expect(saved).toEqual([]);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Amount (USD)', description: /^Enter an amount from \$0\.01/ }));
  });

  // As the master lists' Pager: "Next page" onto the last page stays (refused), keeping focus.
  it('keeps focus in the pagination after Next page reaches the last page', async () => {
    promoServer(Array.from({ length: 60 }, (_, i) => ({ ...SPRING, id: `pc${i}`, code: `CODE-${String(i).padStart(2, '0')}` })));
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await screen.findByText('CODE-00');
    const next = screen.getByRole('link', { name: 'Next page' });
    next.focus();
    await user.keyboard('{Enter}');
    await screen.findByText('CODE-59');
    expect(document.activeElement).toBe(next);
  });

  it('names its table', async () => {
    promoServer();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await screen.findByText('SPRING-20');
    expect(screen.getByRole('table', { name: 'All promo codes' })).toBeTruthy();
  });
});
