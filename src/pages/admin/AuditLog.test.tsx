import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { compactJson } from '../../state/audit';
import AuditLog from './AuditLog';

describe('AuditLog', () => {
  it('shows entries with compact before/after and filters by action and target type', async () => {
    const queries: Record<string, string>[] = [];
    server.use(
      http.get('/api/admin/get-audit-log', ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        queries.push(q);
        return apiJson('GET /api/admin/get-audit-log', {
          auditLog: [
            {
              id: 41,
              actorId: 'm1',
              actorEmail: 'boss@example.com',
              action: 'user.roles',
              targetType: 'user',
              targetId: 'u2',
              before: { roles: ['PROVIDER_USER'] },
              after: { roles: ['PROVIDER_USER', 'ADMIN_USER'] },
              at: '2025-03-01T10:00:00.000Z',
            },
          ],
          total: 60,
        });
      }),
    );
    const ue = userEvent.setup();
    renderAt(<AuditLog />, '/admin/dashboard/admin/audit-log');
    const row = (await screen.findByText('user.roles')).closest('tr')!;
    expect(within(row).getByText('boss@example.com')).toBeTruthy();
    expect(within(row).getByText('{"roles":["PROVIDER_USER"]}')).toBeTruthy();
    expect(within(row).getByText('{"roles":["PROVIDER_USER","ADMIN_USER"]}')).toBeTruthy();
    expect(queries[0]).toEqual({ page: '1', pageSize: '25' });

    await ue.type(screen.getByLabelText('Action'), 'user.roles');
    await ue.selectOptions(screen.getByLabelText('Target type'), 'User');
    await ue.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(queries.at(-1)).toEqual({ page: '1', pageSize: '25', action: 'user.roles', targetType: 'user' }));

    await ue.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(queries.at(-1)).toEqual({ page: '2', pageSize: '25', action: 'user.roles', targetType: 'user' }));
    expect(screen.getByText('Page 2 of 3 (60 in all)')).toBeTruthy();
  });

  // Investigating one staff member: their id (typed, or from "actions by this user" on their user
  // screen, ?actorId=) and UTC days, both included: the API's `until` is the day after, excluded.
  it('narrows the log to who acted and to UTC days, opening on the actor the link names', async () => {
    const queries: Record<string, string>[] = [];
    server.use(
      http.get('/api/admin/get-audit-log', ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        queries.push(q);
        if (q.since && q.until && q.since >= q.until) {
          const body = { message: 'The start of the range must be before its end.', code: 'audit.range_invalid', params: { field: 'until' } } as const;
          return apiJson('GET /api/admin/get-audit-log', body, 400);
        }
        return apiJson('GET /api/admin/get-audit-log', { auditLog: [], total: 0 });
      }),
    );
    const ue = userEvent.setup();
    renderAt(<AuditLog />, '/admin/dashboard/admin/audit-log?actorId=a7');
    await waitFor(() => expect(queries.at(-1)).toEqual({ page: '1', pageSize: '25', actorId: 'a7' }));
    expect((screen.getByLabelText('By (user id)') as HTMLInputElement).value).toBe('a7');

    await ue.type(screen.getByLabelText('From (UTC day)'), '2026-01-11');
    await ue.type(screen.getByLabelText('Through (UTC day, included)'), '2026-01-31');
    await ue.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(queries.at(-1)).toEqual({ page: '1', pageSize: '25', actorId: 'a7', since: '2026-01-11', until: '2026-02-01' }));

    // A range that ends before it starts is the server's to refuse; its words are the page's.
    await ue.clear(screen.getByLabelText('From (UTC day)'));
    await ue.type(screen.getByLabelText('From (UTC day)'), '2026-02-05');
    await ue.click(screen.getByRole('button', { name: 'Filter' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The start of the range must be before its end.');

    await ue.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(queries.at(-1)).toEqual({ page: '1', pageSize: '25' }));
    expect((screen.getByLabelText('By (user id)') as HTMLInputElement).value).toBe('');
  });

  it("shows the error of a refused read, in the page's language, naming the field", async () => {
    // As the server answers a schema refusal: its rule and limit, and English words for the message.
    const tooLong = {
      message: 'Invalid targetType: at most 100 characters.',
      code: 'validation.invalid',
      params: { field: 'targetType', reason: 'at most 100 characters', rule: 'too_long', limit: 100 },
    } as const;
    server.use(http.get('/api/admin/get-audit-log', () => apiJson('GET /api/admin/get-audit-log', tooLong, 400)));
    renderAt(<AuditLog />, '/admin/dashboard/admin/audit-log');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid target type: at most 100 characters.');
    cleanup();
    await i18n.changeLanguage('es');
    try {
      renderAt(<AuditLog />, '/es/admin/dashboard/admin/audit-log');
      // Every word Spanish: the rule is worded on the page, not the server's English reason.
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Valor no válido en tipo de objetivo: como máximo 100 caracteres.'));
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('compacts JSON whether it arrives parsed or as text', () => {
    expect(compactJson({ a: 1, b: [1, 2] })).toBe('{"a":1,"b":[1,2]}');
    expect(compactJson('{ "a" : 1 }')).toBe('{"a":1}');
    expect(compactJson('plain')).toBe('plain');
    expect(compactJson(null)).toBe('');
  });

  // The kind of object an entry is about is named in the page's language, in the rows and in the
  // filter (a select of the kinds the server writes, sending the code); the action stays a code.
  it('names the kinds of object in the page’s language and filters by their code', async () => {
    const queries: Record<string, string>[] = [];
    const entry = (id: number, action: string, targetType: string, targetId: string | null) => ({
      id,
      actorId: 'm1',
      actorEmail: 'jefa@example.com',
      action,
      targetType,
      targetId,
      before: null,
      after: null,
      at: '2026-03-01T10:00:00.000Z',
    });
    server.use(
      http.get('/api/admin/get-audit-log', ({ request }) => {
        queries.push(Object.fromEntries(new URL(request.url).searchParams));
        return apiJson('GET /api/admin/get-audit-log', {
          auditLog: [entry(3, 'user.status', 'user', 'u2'), entry(2, 'promo_code.create', 'promo_code', 'p1'), entry(1, 'future.thing', 'gadget', null)],
          total: 3,
        });
      }),
    );
    await i18n.changeLanguage('es');
    try {
      const ue = userEvent.setup();
      renderAt(<AuditLog />, '/es/admin/dashboard/admin/audit-log');
      const kindOf = async (action: string) => {
        const row = (await screen.findByText(action)).closest('tr')!;
        return row.querySelectorAll('td')[3].firstChild?.textContent;
      };
      expect(await kindOf('user.status')).toBe('Usuario');
      expect(await kindOf('promo_code.create')).toBe('Código promocional');
      expect(await kindOf('future.thing')).toBe('gadget'); // a kind this page does not know keeps its code
      expect(screen.getByText('user.status').tagName).toBe('CODE');

      const select = screen.getByLabelText<HTMLSelectElement>('Tipo de objeto');
      const options = [...select.options].map((o) => [o.value, o.textContent]);
      expect(options[0]).toEqual(['', 'Todos los tipos']);
      expect(options).toContainEqual(['invoice', 'Factura']);
      expect(options).toContainEqual(['textbelt_token', 'Clave de Textbelt']);
      await ue.selectOptions(select, 'Factura');
      await ue.click(screen.getByRole('button', { name: 'Filtrar' }));
      await waitFor(() => expect(queries.at(-1)).toEqual({ page: '1', pageSize: '25', targetType: 'invoice' }));
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
