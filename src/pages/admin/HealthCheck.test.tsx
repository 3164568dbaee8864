import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import type { HealthCheck as Check } from '../../api/health';
import HealthCheck from './HealthCheck';

const at = (min: number) => new Date(Date.UTC(2025, 2, 1, 10, min)).toISOString();
const run = (min: number, firstId: number, statuses: Check['status'][] = ['ok', 'ok', 'ok', 'ok', 'ok']): Check[] =>
  (['database', 'disk', 'smtp', 'payment-server', 'sms'] as const).map((name, i) => ({
    id: firstId + i,
    name,
    status: statuses[i],
    message: `${name} said ${statuses[i]} at ${min}`,
    says: null, // recorded before results had codes: the page shows the words
    durationMs: name === 'payment-server' ? 1500 : 12,
    checkedAt: at(min),
  }));

/** A fake of the health API over a mutable list of rows; every answer is one the server could send. */
function healthServer(initial: Check[], opts: { goneOnDelete?: boolean; nextRun?: Check['status'][] } = {}) {
  let rows = [...initial];
  const queries: URLSearchParams[] = [];
  const deleted: string[] = [];
  let runs = 0;
  const newestFirst = () => [...rows].sort((a, b) => b.id - a.id);
  const latest = () => {
    const seen = new Map<string, Check>();
    for (const r of newestFirst()) if (!seen.has(r.name)) seen.set(r.name, r);
    const order = ['database', 'disk', 'smtp', 'payment-server', 'sms'];
    return [...seen.values()].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  };
  server.use(
    http.get('/api/admin/get-health-check', ({ request }) => {
      const q = new URL(request.url).searchParams;
      queries.push(q);
      const page = Number(q.get('page') ?? 1);
      const pageSize = Number(q.get('pageSize') ?? 25);
      const name = q.get('name');
      const matching = newestFirst().filter((r) => !name || r.name === name);
      const healthChecks = matching.slice((page - 1) * pageSize, page * pageSize);
      return apiJson('GET /api/admin/get-health-check', { healthChecks, latest: latest(), total: matching.length, page, pageSize });
    }),
    http.post('/api/admin/run-health-check', () => {
      runs++;
      const fresh = run(30, 1000 + runs * 10, opts.nextRun);
      rows = [...rows, ...fresh];
      return apiJson('POST /api/admin/run-health-check', { healthChecks: fresh });
    }),
    http.delete('/api/admin/delete-health-check-by-id/:id', ({ params }) => {
      const route = 'DELETE /api/admin/delete-health-check-by-id/:id';
      if (opts.goneOnDelete) return apiJson(route, { message: 'Health check result not found.', code: 'health.check_not_found' } as never, 404 as never);
      if (latest().some((r) => String(r.id) === params.id)) {
        const message = 'This is the newest result of its check: it stands until the next run. Only older results can be deleted.';
        return apiJson(route, { message, code: 'health.result_current' } as never, 409 as never);
      }
      deleted.push(String(params.id));
      rows = rows.filter((r) => String(r.id) !== params.id);
      return apiJson(route, { deleted: true });
    }),
  );
  return { queries, deleted, runs: () => runs };
}

const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('admin health check', () => {
  it('shows the latest status of each check on top, in words, and the history below, newest first', async () => {
    healthServer([...run(0, 1), ...run(5, 6, ['ok', 'degraded', 'ok', 'failing', 'ok'])]);
    renderAt(<HealthCheck />, '/admin/dashboard/admin/health-check');

    const latest = await screen.findByRole('table', { name: 'Latest status' });
    const rows = within(latest).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Database',
      'Disk space',
      'E-mail (SMTP)',
      'Payment server',
      'SMS (Textbelt)',
    ]);
    expect(cellsOf(latest)[1]).toEqual(['Degraded', 'disk said degraded at 5', new Date(at(5)).toLocaleString('en')]);
    expect(cellsOf(latest)[3].slice(0, 2)).toEqual(['Failing', 'payment-server said failing at 5']);

    const history = screen.getByRole('table', { name: 'History' });
    const h = cellsOf(history);
    expect(h).toHaveLength(10);
    expect(h[0]).toEqual([new Date(at(5)).toLocaleString('en'), 'SMS (Textbelt)', 'OK', 'sms said ok at 5', '12 ms', 'Current result']);
    expect(h[9].at(-1)).toBe('Delete'); // an older result
    expect(h[1].slice(1, 5)).toEqual(['Payment server', 'Failing', 'payment-server said failing at 5', '1.5 s']);
    expect(h[9].slice(1, 3)).toEqual(['Database', 'OK']);
  });

  it('rounds a duration as a whole before splitting it into minutes and seconds', async () => {
    const slow = run(0, 1).map((c, i) => ({ ...c, durationMs: [119_600, 59_960, 59_940, 1_000, 999][i] }));
    healthServer(slow);
    renderAt(<HealthCheck />, '/admin/dashboard/admin/health-check');
    const history = await screen.findByRole('table', { name: 'History' });
    expect(cellsOf(history).map((c) => [c[1], c[4]])).toEqual([
      ['SMS (Textbelt)', '999 ms'],
      ['Payment server', '1 s'],
      ['E-mail (SMTP)', '59.9 s'],
      ['Disk space', '1 min 0 s'],
      ['Database', '2 min 0 s'],
    ]);
  });

  it('says so before any check has run, and runs them now', async () => {
    const srv = healthServer([], { nextRun: ['ok', 'ok', 'failing', 'ok', 'ok'] });
    const user = userEvent.setup();
    renderAt(<HealthCheck />, '/admin/dashboard/admin/health-check');
    expect(await screen.findByText('No check has run yet. Run the checks to see how the server is doing.')).toBeTruthy();
    expect(screen.getByText('No results recorded.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Run the checks now' }));
    expect((await screen.findByRole('status')).textContent).toBe(`The checks ran at ${new Date(at(30)).toLocaleString('en')}.`);
    expect(srv.runs()).toBe(1);
    const latest = await screen.findByRole('table', { name: 'Latest status' });
    expect(cellsOf(latest).map((c) => c[0])).toEqual(['OK', 'OK', 'Failing', 'OK', 'OK']);
    expect(cellsOf(screen.getByRole('table', { name: 'History' }))).toHaveLength(5);
  });

  it('filters the history by check', async () => {
    const srv = healthServer([...run(0, 1), ...run(5, 6)]);
    const user = userEvent.setup();
    renderAt(<HealthCheck />, '/admin/dashboard/admin/health-check');
    await screen.findByRole('table', { name: 'History' });
    await user.selectOptions(screen.getByLabelText('Check'), 'Disk space');
    await waitFor(() => expect(cellsOf(screen.getByRole('table', { name: 'History' }))).toHaveLength(2));
    expect(srv.queries.at(-1)!.get('name')).toBe('disk');
    expect(srv.queries.at(-1)!.get('page')).toBe('1');
  });

  it('deletes a result only after confirming, then reloads the history', async () => {
    const srv = healthServer([...run(0, 1), ...run(5, 6)]);
    const user = userEvent.setup();
    renderAt(<HealthCheck />, '/admin/dashboard/admin/health-check');
    await screen.findByRole('table', { name: 'History' });
    const when = new Date(at(0)).toLocaleString('en');

    await user.click(screen.getByRole('button', { name: `Delete the Disk space result of ${when}` }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this result?' });
    expect(within(dialog).getByText(`The Disk space result of ${when} will be deleted. This cannot be undone.`)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(srv.deleted).toEqual([]);

    await user.click(screen.getByRole('button', { name: `Delete the Disk space result of ${when}` }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this result?' })).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('status')).textContent).toBe('Result of Disk space deleted.');
    expect(srv.deleted).toEqual(['2']);
    await waitFor(() => expect(cellsOf(screen.getByRole('table', { name: 'History' }))).toHaveLength(9));
  });

  it('does not offer to delete the newest result of a check (its current state: the server refuses), and says why in the page’s language', async () => {
    healthServer([...run(0, 1), ...run(5, 6, ['ok', 'failing', 'ok', 'ok', 'ok'])]);
    renderAt(<HealthCheck />, '/admin/dashboard/admin/health-check');
    await screen.findByRole('table', { name: 'History' });
    await i18n.changeLanguage('pt');
    const history = screen.getByRole('table', { name: 'Histórico' });
    const older = new Date(at(0)).toLocaleString('pt');
    const newest = new Date(at(5)).toLocaleString('pt');
    expect(within(history).getByRole('button', { name: `Excluir o resultado de Espaço em disco de ${older}` })).toBeTruthy();
    expect(within(history).queryByRole('button', { name: `Excluir o resultado de Espaço em disco de ${newest}` })).toBeNull();
    expect(within(history).getAllByText('Resultado vigente')).toHaveLength(5); // one per check of the newest run
    expect(cellsOf(screen.getByRole('table', { name: 'Situação atual' }))[1][0]).toBe('Com falha');
  });

  // Kept unworded, worded at each render: a language switch after the refusal, or after the
  // deletion, re-words what the page says.
  it('words a refusal and a deletion again after a switch to Spanish', async () => {
    healthServer([...run(0, 1), ...run(5, 6)], { goneOnDelete: true });
    const user = userEvent.setup();
    renderAt(<HealthCheck />, '/admin/dashboard/admin/health-check');
    await screen.findByRole('table', { name: 'History' });
    const when = new Date(at(0)).toLocaleString('en');
    await user.click(screen.getByRole('button', { name: `Delete the Database result of ${when}` }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this result?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Health check result not found.');
    await act(() => i18n.changeLanguage('es'));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('No se encontró el resultado de la comprobación de estado.'));
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await act(() => i18n.changeLanguage('en'));

    healthServer([...run(0, 1), ...run(5, 6)]);
    await user.click(screen.getByRole('button', { name: `Delete the Database result of ${when}` }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this result?' })).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('status')).textContent).toBe('Result of Database deleted.');
    await act(() => i18n.changeLanguage('es'));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Resultado de Base de datos eliminado.'));
  });

  it('shows a refusal in Spanish', async () => {
    healthServer([...run(0, 1), ...run(5, 6)], { goneOnDelete: true }); // the first run's results are older: deletable
    const user = userEvent.setup();
    renderAt(<HealthCheck />, '/admin/dashboard/admin/health-check');
    await screen.findByRole('table', { name: 'History' });
    await i18n.changeLanguage('es');
    const when = new Date(at(0)).toLocaleString('es');
    await user.click(screen.getByRole('button', { name: `Eliminar el resultado de Base de datos del ${when}` }));
    await user.click(within(screen.getByRole('dialog', { name: '¿Eliminar este resultado?' })).getByRole('button', { name: 'Eliminar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No se encontró el resultado de la comprobación de estado.');
    expect(screen.getByRole('table', { name: 'Estado actual' })).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Estado actual' })).getAllByText('Correcto')).toHaveLength(5);
  });

  it('words each outcome in the page’s language from its code, its numbers and the text another server sent', async () => {
    const said = (name: Check['name'], status: Check['status'], says: Check['says'], message: string, i: number): Check => ({
      id: 100 + i,
      name,
      status,
      message,
      says,
      durationMs: 12,
      checkedAt: at(9),
    });
    healthServer([
      said('database', 'ok', { code: 'database.ok', params: { took: '4 ms' } }, 'integrity ok; a write took 4 ms', 0),
      said('disk', 'degraded', { code: 'disk.low', params: { free: '9.0 GB', total: '100.0 GB', percent: '9.0 %', limit: '10 %' } }, 'x', 1),
      said(
        'memory',
        'ok',
        {
          code: 'memory.ok',
          params: { rss: '180 MB', heap: '60 MB' },
          parts: [
            { code: 'memory.cache', params: { cache: 'api', hit: '93 %', lookups: 1200, used: '10 MB', max: '57 MB' } },
            { code: 'memory.cache_idle', params: { cache: 'pages', used: '0.0 MB', max: '40 MB' } },
            { code: 'memory.cache_refusing', params: { cache: 'searches', hit: '40 %', lookups: 500, count: 12, used: '12 MB', max: '12 MB' } },
            { code: 'memory.cache_short_refusing', params: { cache: 'cards', hit: '20 %', lookups: 2000, count: 1, used: '3.0 MB', max: '3.0 MB' } },
          ],
        },
        'x',
        2,
      ),
      said('smtp', 'degraded', { code: 'smtp.ok', params: { host: 'mail.example.com:587', slow: '3.4 s' } }, 'x', 3),
      said(
        'payment-server',
        'failing',
        { code: 'payment.key_refused', parts: [{ code: 'payment.syncing' }, { code: 'payment.store_unreadable', detail: 'HTTP 500' }] },
        'x',
        4,
      ),
      said('sms', 'failing', { code: 'sms.error', detail: 'Invalid API key' }, 'Textbelt: Invalid API key', 5),
      said('sms', 'ok', { code: 'sms.someday_new' }, 'words from a newer server', 6),
    ]);
    await i18n.changeLanguage('es');
    try {
      renderAt(<HealthCheck />, '/es/admin/dashboard/admin/health-check');
      const latest = await screen.findByRole('table', { name: 'Estado actual' });
      expect(cellsOf(latest).map((c) => c[1])).toEqual([
        // (this fake lists a check it does not know, memory, first)
        'RSS 180 MB, montículo de JavaScript 60 MB. Cachés desde la última comprobación: respuestas de la API: 93 % de 1200 consultas acertadas, 10 MB de 57 MB; páginas: sin consultas, 0.0 MB de 40 MB; ' +
          'listas de búsqueda: 40 % de 500 consultas acertadas, 12 entradas nuevas rechazadas (pedidas menos a menudo que lo que desplazarían), 12 MB de 12 MB; ' +
          'tarjetas de resultados de búsqueda (demasiado pequeña): 20 % de 2000 consultas acertadas, 1 entrada nueva rechazada (pedida menos a menudo que lo que desplazaría), 3.0 MB de 3.0 MB.',
        'Integridad correcta; una escritura tardó 4 ms.',
        '9.0 GB libres de 100.0 GB (9.0 %): por debajo de 10 %',
        'mail.example.com:587 aceptó la conexión y el inicio de sesión. Lenta: 3.4 s.',
        'BTCPay Server rechazó nuestra clave de API: no se pueden crear facturas. BTCPay Server todavía está sincronizando sus nodos: los pagos se ven con retraso. No se pudo leer la tienda. Detalles: HTTP 500.',
        'words from a newer server',
      ]);
      const history = cellsOf(screen.getByRole('table', { name: 'Historial' }));
      expect(history.find((c) => c[1] === 'SMS (Textbelt)' && c[2] === 'Con fallos')?.[3]).toBe('Textbelt rechazó la solicitud. Detalles: Invalid API key');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('pages through the history', async () => {
    const many = Array.from({ length: 6 }, (_, i) => run(i * 5, 1 + i * 5)).flat(); // 30 rows
    const srv = healthServer(many);
    const user = userEvent.setup();
    renderAt(<HealthCheck />, '/admin/dashboard/admin/health-check');
    await screen.findByRole('table', { name: 'History' });
    expect(cellsOf(screen.getByRole('table', { name: 'History' }))).toHaveLength(25);
    await user.click(within(screen.getByRole('navigation', { name: 'Health check result pages' })).getByRole('button', { name: /next/i }));
    await waitFor(() => expect(cellsOf(screen.getByRole('table', { name: 'History' }))).toHaveLength(5));
    expect(srv.queries.at(-1)!.get('page')).toBe('2');
  });
});
