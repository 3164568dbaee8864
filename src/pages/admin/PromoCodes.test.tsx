import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import type { PromoCode, PromoCodeInput } from '../../api/admin-pricing';
import type { ErrorBody } from '../../../contract/errors/index.ts';
import PromoCodes from './PromoCodes';

const TAKEN: ErrorBody = { message: 'A promo code with this code already exists.', code: 'pricing.promo_code_taken' };
const CHANGED: ErrorBody = {
  message: 'This promo code changed meanwhile: nothing was saved. The list shows it as it is now; edit it again.',
  code: 'pricing.promo_code_changed_meanwhile',
};

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

/**
 * A fake of the promo code API over a mutable list (newest first, as the server sorts). As the
 * server does, it refuses an update whose `from` is not the code as stored (409).
 */
function promoServer(initial: PromoCode[] = [SPRING]) {
  const codes: PromoCode[] = [...initial];
  const queries: string[] = [];
  const saved: PromoCodeInput[] = [];
  server.use(
    http.get('/api/admin/get-all-promo-codes', ({ request }) => {
      const q = new URL(request.url).searchParams;
      queries.push(q.toString());
      return apiJson('GET /api/admin/get-all-promo-codes', {
        promoCodes: codes,
        total: codes.length,
        page: Number(q.get('page')),
        pageSize: Number(q.get('pageSize')),
      });
    }),
    http.post('/api/admin/set-promo-code-by-id', async ({ request }) => {
      const body = (await request.json()) as PromoCodeInput;
      saved.push(body);
      const clash = codes.find((c) => c.code === body.code && c.id !== body.id);
      if (clash) return apiJson('POST /api/admin/set-promo-code-by-id', TAKEN as never, 409); // checked against the 4xx schema at run time
      if (body.id) {
        const i = codes.findIndex((c) => c.id === body.id);
        const { from, ...fields } = body;
        const now = codes[i];
        const seen = from && { code: now.code, amountCents: now.amountCents, maxUses: now.maxUses, expiresAt: now.expiresAt, active: now.active };
        if (from && JSON.stringify(from) !== JSON.stringify(seen)) return apiJson('POST /api/admin/set-promo-code-by-id', CHANGED as never, 409);
        codes[i] = { ...now, ...fields, id: now.id, expiresAt: body.expiresAt ?? null };
        return apiJson('POST /api/admin/set-promo-code-by-id', { promoCode: codes[i] });
      }
      const created: PromoCode = {
        ...body,
        amountCents: body.amountCents ?? 2000,
        id: `pc${codes.length + 1}`,
        expiresAt: body.expiresAt ?? null,
        uses: 0,
        personal: false,
        createdAt: '2025-03-02T10:00:00.000Z',
      };
      codes.unshift(created);
      return apiJson('POST /api/admin/set-promo-code-by-id', { promoCode: created }, 201);
    }),
  );
  return { codes, queries, saved };
}

const rowTexts = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .slice(0, 5)
        .map((c) => c.textContent),
    );

describe('admin promo codes', () => {
  it('lists the codes, creates one in exact cents and refuses a duplicate with the server’s message', async () => {
    const srv = promoServer();
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');

    await screen.findByRole('table');
    expect(rowTexts()).toEqual([['SPRING-20', '$20.00', '3 / 100', 'Jun 30, 2030', 'Yes']]);
    expect(srv.queries).toEqual(['page=1&pageSize=50']);

    await user.type(screen.getByLabelText('Code'), 'summer-10');
    const amount = screen.getByLabelText('Amount (USD)');
    await user.clear(amount);
    await user.type(amount, '12.30');
    const uses = screen.getByLabelText('Maximum uses');
    await user.clear(uses);
    await user.type(uses, '5');
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));
    expect((await screen.findByRole('status')).textContent).toBe('Promo code SUMMER-10 ($12.30) created.');
    await waitFor(() => expect(rowTexts()).toHaveLength(2));
    expect(rowTexts()[0]).toEqual(['SUMMER-10', '$12.30', '0 / 5', 'Never', 'Yes']);
    expect(srv.saved).toEqual([{ code: 'SUMMER-10', amountCents: 1230, maxUses: 5, expiresAt: null, active: true }]);

    await user.type(screen.getByLabelText('Code'), 'SPRING-20');
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A promo code with this code already exists.');
    expect(rowTexts()).toHaveLength(2);
  });

  it('writes amounts with the page’s decimal mark in Portuguese: the new code’s default, an edited code’s amount, the hint', async () => {
    const srv = promoServer();
    await i18n.changeLanguage('pt');
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/pt/admin/dashboard/admin/promo-codes');
    const amount = await screen.findByLabelText<HTMLInputElement>('Valor (USD)');
    expect(amount.value).toBe('20,00');
    expect(screen.getByText('Em dólares, por exemplo 20 ou 12,50.')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Editar SPRING-20' }));
    expect(screen.getByLabelText<HTMLInputElement>('Valor (USD)').value).toBe('20,00');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(srv.saved).toHaveLength(1));
    expect(srv.saved[0]).toMatchObject({ id: 'pc1', amountCents: 2000 });
  });

  it('edits a code in place', async () => {
    const srv = promoServer();
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await user.click(await screen.findByRole('button', { name: 'Edit SPRING-20' }));
    await user.click(screen.getByRole('checkbox', { name: 'Active' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Promo code SPRING-20 saved.');
    await waitFor(() => expect(rowTexts()[0]).toEqual(['SPRING-20', '$20.00', '3 / 100', 'Jun 30, 2030', 'No']));
    expect(srv.saved).toEqual([
      {
        id: 'pc1',
        code: 'SPRING-20',
        amountCents: 2000,
        maxUses: 100,
        expiresAt: '2030-06-30T23:59:59.999Z',
        active: false,
        from: { code: 'SPRING-20', amountCents: 2000, maxUses: 100, expiresAt: '2030-06-30T23:59:59.999Z', active: true },
      },
    ]);
    // The form is a fresh one after the save, its Save button gone: focus is on the outcome, not lost to the page's body.
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement).toBe(screen.getByRole('status'));
  });

  it('cancelling an edit puts focus on the page’s heading, not on the page’s body (the form and its Cancel button are replaced)', async () => {
    promoServer();
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await user.click(await screen.findByRole('button', { name: 'Edit SPRING-20' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { level: 2, name: 'New promo code' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Promo codes' }));
  });

  it('refuses before sending what the server would refuse: over $10,000, an expiry day already over', async () => {
    const srv = promoServer();
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await screen.findByRole('table');
    await user.type(screen.getByLabelText('Code'), 'BIG-ONE');
    const amount = screen.getByLabelText('Amount (USD)');
    await user.clear(amount);
    await user.type(amount, '10000.01');
    await user.type(screen.getByLabelText('Expires'), '2020-01-01');
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));
    expect(await screen.findByText('Enter an amount from $0.01 to $10,000.00 in dollars, for example 20.00.')).toBeTruthy();
    expect(screen.getByText('That day is over: choose a later one, or leave it empty for no expiry.')).toBeTruthy();
    expect(srv.saved).toEqual([]);
  });

  it('edits a code whose expiry has passed, keeping that expiry (the server refuses a past day only on create)', async () => {
    const winter: PromoCode = { ...SPRING, id: 'pc3', code: 'WINTER-10', amountCents: 1000, maxUses: 50, uses: 12, expiresAt: '2024-01-31T23:59:59.999Z' };
    const srv = promoServer([winter]);
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await user.click(await screen.findByRole('button', { name: 'Edit WINTER-10' }));
    await user.click(screen.getByRole('checkbox', { name: 'Active' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Promo code WINTER-10 saved.');
    expect(screen.queryByText('That day is over: choose a later one, or leave it empty for no expiry.')).toBeNull();
    expect(srv.saved).toEqual([
      {
        id: 'pc3',
        code: 'WINTER-10',
        amountCents: 1000,
        maxUses: 50,
        expiresAt: '2024-01-31T23:59:59.999Z',
        active: false,
        from: { code: 'WINTER-10', amountCents: 1000, maxUses: 50, expiresAt: '2024-01-31T23:59:59.999Z', active: true },
      },
    ]);
  });

  it('editing a code refuses a new expiry day that is already over', async () => {
    const srv = promoServer();
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await user.click(await screen.findByRole('button', { name: 'Edit SPRING-20' }));
    const expires = screen.getByLabelText('Expires');
    await user.clear(expires);
    await user.type(expires, '2020-01-01');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('That day is over: choose a later one, or leave it empty for no expiry.')).toBeTruthy();
    expect(srv.saved).toEqual([]);
  });

  it('editing a code keeps an expiry left as it was to the minute (a welcome code’s is not the end of a day)', async () => {
    const welcome: PromoCode = { ...SPRING, id: 'pc2', code: 'WELCOME-AB12CD34', maxUses: 1, uses: 0, expiresAt: '2030-06-30T14:27:05.000Z', personal: true };
    const srv = promoServer([welcome]);
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await user.click(await screen.findByRole('button', { name: 'Edit WELCOME-AB12CD34' }));
    await user.click(screen.getByRole('checkbox', { name: 'Active' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('status');
    expect(srv.saved[0].expiresAt).toBe('2030-06-30T14:27:05.000Z');
  });

  it('an edit over another admin’s change is refused: says so, saves nothing, reads the list again', async () => {
    const srv = promoServer();
    const user = userEvent.setup();
    renderAt(<PromoCodes />, '/admin/dashboard/admin/promo-codes');
    await user.click(await screen.findByRole('button', { name: 'Edit SPRING-20' }));
    srv.codes[0] = { ...srv.codes[0], active: false }; // another admin switched it off (it leaked)
    const uses = screen.getByLabelText('Maximum uses');
    await user.clear(uses);
    await user.type(uses, '500');
    const reads = srv.queries.length;
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This promo code changed meanwhile: nothing was saved. The list shows it as it is now; edit it again.');
    expect(srv.saved).toEqual([
      {
        id: 'pc1',
        code: 'SPRING-20',
        amountCents: 2000,
        maxUses: 500,
        expiresAt: '2030-06-30T23:59:59.999Z',
        active: true,
        from: { code: 'SPRING-20', amountCents: 2000, maxUses: 100, expiresAt: '2030-06-30T23:59:59.999Z', active: true },
      },
    ]);
    expect(srv.codes[0]).toMatchObject({ active: false, maxUses: 100 });
    await waitFor(() => expect(srv.queries.length).toBe(reads + 1));
    await waitFor(() => expect(rowTexts()[0]).toEqual(['SPRING-20', '$20.00', '3 / 100', 'Jun 30, 2030', 'No']));
    expect(screen.getByRole('heading', { level: 2, name: 'New promo code' })).toBeTruthy(); // the stale form is gone
    expect(document.activeElement).toBe(alert);
    expect(screen.queryByText('Promo code SPRING-20 saved.')).toBeNull();

    // Opened again from the list as it is now, the edit goes through.
    await user.click(screen.getByRole('button', { name: 'Edit SPRING-20' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Promo code SPRING-20 saved.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(srv.saved.at(-1)).toMatchObject({ active: false, from: { active: false } });
  });
});
