import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import type { CronRun, CronSchedule } from '../../api/cron';
import CronJobs from './CronJobs';

const SCHEDULES: CronSchedule[] = [
  { name: 'expire-ads', cron: '0 * * * *', nextRunAt: '2025-03-01T11:00:00.000Z', lastOutcome: 'ok' },
  { name: 'health-checks', cron: '*/5 * * * *', nextRunAt: '2025-03-01T10:10:00.000Z', lastOutcome: 'failed' },
  { name: 'purge-old-runs', cron: '45 3 * * *', nextRunAt: null, lastOutcome: null },
];

const RUNS: CronRun[] = [
  {
    id: 3,
    name: 'health-checks',
    startedAt: '2025-03-01T10:05:00.000Z',
    finishedAt: '2025-03-01T10:05:02.500Z',
    outcome: 'failed',
    message: 'SMTP unreachable',
    says: null,
  },
  {
    id: 2,
    name: 'expire-ads',
    startedAt: '2025-03-01T10:00:00.000Z',
    finishedAt: '2025-03-01T10:00:00.120Z',
    outcome: 'ok',
    message: '2 ads expired',
    says: null,
  },
  { id: 1, name: 'health-checks', startedAt: '2025-03-01T09:55:00.000Z', finishedAt: null, outcome: 'running', message: null, says: null },
];

/** A fake of the cron API over a mutable list (newest first, as the server sorts); every answer is one the server could send. */
function cronServer(
  initial: CronRun[],
  opts: { goneOnDelete?: boolean; busy?: boolean; says?: (name: string) => CronRun['says']; schedules?: CronSchedule[]; runTakesMs?: number } = {},
) {
  const schedules = opts.schedules ?? SCHEDULES;
  let runs = [...initial];
  const queries: URLSearchParams[] = [];
  const deleted: string[] = [];
  const ran: string[] = [];
  server.use(
    http.get('/api/admin/get-cron-jobs', ({ request }) => {
      const q = new URL(request.url).searchParams;
      queries.push(q);
      const page = Number(q.get('page') ?? 1);
      const pageSize = Number(q.get('pageSize') ?? 25);
      const name = q.get('name');
      const matching = name ? runs.filter((r) => r.name === name) : runs;
      const cronJobs = matching.slice((page - 1) * pageSize, page * pageSize);
      const withOutcomes = schedules.map((j) => ({ ...j, lastOutcome: runs.find((r) => r.name === j.name)?.outcome ?? j.lastOutcome }));
      return apiJson('GET /api/admin/get-cron-jobs', { cronJobs, schedules: withOutcomes, total: matching.length, page, pageSize });
    }),
    http.post('/api/admin/run-cron-job', async ({ request }) => {
      const route = 'POST /api/admin/run-cron-job';
      const { name } = (await request.json()) as { name: string };
      if (opts.busy)
        return apiJson(
          route,
          { message: `The job ${name} is already running. Wait for it to finish, then try again.`, code: 'cron.job_running', params: { name } } as never,
          409 as never,
        );
      // The server answers once the run has ended: a long job's answer comes after its whole run.
      if (opts.runTakesMs) await delay(opts.runTakesMs);
      ran.push(name);
      const run: CronRun = {
        id: 100 + ran.length,
        name,
        startedAt: '2025-03-01T10:20:00.000Z',
        finishedAt: '2025-03-01T10:20:00.040Z',
        outcome: name === 'health-checks' ? 'failed' : 'ok',
        message: name === 'health-checks' ? 'timed out after 1 min' : '0 job runs and 0 health check results older than 30 days deleted',
        says: opts.says?.(name) ?? null,
      };
      runs = [run, ...runs];
      return apiJson(route, { cronJob: run });
    }),
    http.delete('/api/admin/delete-cron-job-status-by-id/:id', ({ params }) => {
      const route = 'DELETE /api/admin/delete-cron-job-status-by-id/:id';
      if (opts.goneOnDelete) return apiJson(route, { message: 'Cron job run not found.', code: 'cron.run_not_found' } as never, 404 as never);
      deleted.push(String(params.id));
      runs = runs.filter((r) => String(r.id) !== params.id);
      return apiJson(route, { deleted: true });
    }),
  );
  return { queries, deleted, ran };
}

const runRows = () =>
  within(screen.getByRole('table', { name: 'Runs' }))
    .getAllByRole('row')
    .slice(1);

describe('admin cron jobs', () => {
  it('lists the schedules (next run, last outcome) and the runs, newest first, with duration and outcome', async () => {
    const srv = cronServer(RUNS);
    renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');

    const jobs = await screen.findByRole('table', { name: 'Schedules' });
    const scheduleCells = within(jobs)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(scheduleCells).toEqual([
      ['expire-ads', '0 * * * *', new Date(SCHEDULES[0].nextRunAt!).toLocaleString('en'), 'OK', 'Run now'],
      ['health-checks', '*/5 * * * *', new Date(SCHEDULES[1].nextRunAt!).toLocaleString('en'), 'Failed', 'Run now'],
      ['purge-old-runs', '45 3 * * *', 'Not scheduled (the scheduler is off)', 'Never run', 'Run now'],
    ]);

    const rows = runRows();
    expect(rows).toHaveLength(3);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(rows[0])).toEqual([
      'health-checks',
      new Date(RUNS[0].startedAt).toLocaleString('en'),
      new Date(RUNS[0].finishedAt!).toLocaleString('en'),
      '2.5 s',
      'Failed',
      'SMTP unreachable',
      'Delete',
    ]);
    expect(cells(rows[1]).slice(3, 6)).toEqual(['120 ms', 'OK', '2 ads expired']);
    expect(cells(rows[2]).slice(2, 5)).toEqual(['—', '—', 'Running']);
    expect(srv.queries[0].get('page')).toBe('1');
    expect(srv.queries[0].has('name')).toBe(false);
  });

  it('rounds a duration as a whole before splitting it into minutes and seconds', async () => {
    const took = (id: number, ms: number): CronRun => ({
      id,
      name: 'expire-ads',
      startedAt: '2025-03-01T10:00:00.000Z',
      finishedAt: new Date(Date.parse('2025-03-01T10:00:00.000Z') + ms).toISOString(),
      outcome: 'ok',
      message: `took ${ms}`,
      says: null,
    });
    cronServer([took(4, 119_600), took(3, 59_960), took(2, 60_000), took(1, 61_400)]);
    renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');
    await screen.findByRole('table', { name: 'Runs' });
    expect(runRows().map((r) => within(r).getAllByRole('cell')[3].textContent)).toEqual(['2 min 0 s', '1 min 0 s', '1 min 0 s', '1 min 1 s']);
  });

  it('filters by job name, asking the server for that job only', async () => {
    const srv = cronServer(RUNS);
    const user = userEvent.setup();
    renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');
    await screen.findByRole('table', { name: 'Runs' });

    await user.selectOptions(screen.getByLabelText('Job'), 'expire-ads');
    await waitFor(() => expect(runRows()).toHaveLength(1));
    expect(within(runRows()[0]).getByText('2 ads expired')).toBeTruthy();
    expect(srv.queries.at(-1)!.get('name')).toBe('expire-ads');
    expect(srv.queries.at(-1)!.get('page')).toBe('1');

    await user.selectOptions(screen.getByLabelText('Job'), 'All jobs');
    await waitFor(() => expect(runRows()).toHaveLength(3));
    expect(srv.queries.at(-1)!.has('name')).toBe(false);
  });

  it('deletes a run only after confirming, then reloads the list', async () => {
    const srv = cronServer(RUNS);
    const user = userEvent.setup();
    renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');
    await screen.findByRole('table', { name: 'Runs' });
    const at = new Date(RUNS[1].startedAt).toLocaleString('en');

    // Cancelling changes nothing.
    await user.click(screen.getByRole('button', { name: `Delete the run of expire-ads started ${at}` }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this run?' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(srv.deleted).toEqual([]);

    await user.click(screen.getByRole('button', { name: `Delete the run of expire-ads started ${at}` }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this run?' });
    expect(within(dialog).getByText(`The record of expire-ads started ${at} will be deleted. This cannot be undone.`)).toBeTruthy();
    const loadsBefore = srv.queries.length;
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect((await screen.findByRole('status')).textContent).toBe('Run of expire-ads deleted.');
    expect(srv.deleted).toEqual(['2']);
    expect(srv.queries.length).toBe(loadsBefore + 1);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(runRows()).toHaveLength(2));
    expect(screen.queryByText('2 ads expired')).toBeNull();
  });

  it("says so in the page's language when the run was already deleted", async () => {
    cronServer(RUNS, { goneOnDelete: true });
    const user = userEvent.setup();
    renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');
    await screen.findByRole('table', { name: 'Runs' });
    const at = new Date(RUNS[1].startedAt).toLocaleString('en');
    await user.click(screen.getByRole('button', { name: `Delete the run of expire-ads started ${at}` }));
    const confirm = within(screen.getByRole('dialog', { name: 'Delete this run?' })).getByRole('button', { name: 'Delete' });
    await user.click(confirm);
    expect((await screen.findByRole('alert')).textContent).toBe('Cron job run not found.');

    await i18n.changeLanguage('es');
    await user.click(confirm);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('No se encontró la ejecución de la tarea programada.'));
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Ejecuciones' })).getAllByRole('row')).toHaveLength(4); // header + 3 runs, none removed
  });

  // Kept unworded, worded at each render: a switch of language after the refusal, or after the
  // deletion, re-words what the page says (no second click needed).
  it('words a refusal and a deletion again after a switch to Spanish', async () => {
    cronServer(RUNS, { goneOnDelete: true });
    const user = userEvent.setup();
    renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');
    await screen.findByRole('table', { name: 'Runs' });
    const at = new Date(RUNS[1].startedAt).toLocaleString('en');
    await user.click(screen.getByRole('button', { name: `Delete the run of expire-ads started ${at}` }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this run?' })).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Cron job run not found.');
    await act(() => i18n.changeLanguage('es'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('No se encontró la ejecución de la tarea programada.'));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    await act(() => i18n.changeLanguage('en'));

    cronServer(RUNS);
    await user.click(screen.getByRole('button', { name: `Delete the run of expire-ads started ${at}` }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this run?' })).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('status')).textContent).toBe('Run of expire-ads deleted.');
    await act(() => i18n.changeLanguage('es'));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Ejecución de expire-ads eliminada.'));
  });

  it('runs a job now, says how it ended, and shows its run first', async () => {
    const srv = cronServer(RUNS);
    const user = userEvent.setup();
    renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');
    await screen.findByRole('table', { name: 'Runs' });

    await user.click(screen.getByRole('button', { name: 'Run now: purge-old-runs' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Run of purge-old-runs finished: OK. 0 job runs and 0 health check results older than 30 days deleted',
    );
    expect(srv.ran).toEqual(['purge-old-runs']);
    await waitFor(() => expect(runRows()).toHaveLength(4));
    expect(within(runRows()[0]).getAllByRole('cell')[0].textContent).toBe('purge-old-runs');
    const schedule = within(screen.getByRole('table', { name: 'Schedules' })).getByRole('row', { name: /^purge-old-runs/ });
    expect(within(schedule).getAllByRole('cell')[3].textContent).toBe('OK');

    await user.click(screen.getByRole('button', { name: 'Run now: health-checks' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Run of health-checks finished: Failed. timed out after 1 min'));
    expect(screen.getByRole('status').className).toContain('alert-error');
  });

  it('waits for a long run to end, past 30 s, then says how it ended and shows its run', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const srv = cronServer(RUNS, {
        schedules: [...SCHEDULES, { name: 'renewal-reminders', cron: '20 * * * *', nextRunAt: null, lastOutcome: null }],
        runTakesMs: 40_000,
      });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');
      await screen.findByRole('table', { name: 'Runs' });
      await user.click(screen.getByRole('button', { name: 'Run now: renewal-reminders' }));
      await vi.advanceTimersByTimeAsync(45_000);
      expect((await screen.findByRole('status')).textContent).toMatch(/^Run of renewal-reminders finished: OK\./);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(srv.ran).toEqual(['renewal-reminders']);
      await waitFor(() => expect(runRows()).toHaveLength(4));
      expect(within(runRows()[0]).getAllByRole('cell')[0].textContent).toBe('renewal-reminders');
    } finally {
      vi.useRealTimers();
    }
  });

  it('says so when the job is already running', async () => {
    const srv = cronServer(RUNS, { busy: true });
    const user = userEvent.setup();
    renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');
    await screen.findByRole('table', { name: 'Runs' });
    await user.click(screen.getByRole('button', { name: 'Run now: expire-ads' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The job expire-ads is already running. Wait for it to finish, then try again.');
    expect(srv.ran).toEqual([]);
    expect(screen.getByRole('button', { name: 'Run now: expire-ads' }).hasAttribute('disabled')).toBe(false);
  });

  it("words each run's report in the page's language, an older run's in the English it was recorded in", async () => {
    const at = (m: number) => new Date(Date.UTC(2025, 2, 1, 10, m)).toISOString();
    const run = (id: number, name: string, outcome: 'ok' | 'failed', message: string, says: CronRun['says']): CronRun => ({
      id,
      name,
      startedAt: at(id),
      finishedAt: at(id),
      outcome,
      message,
      says,
    });
    const srv = cronServer(
      [
        run(4, 'health-checks', 'ok', '6 checks: disk failing', {
          code: 'cron.checks_not_ok',
          params: { count: 6 },
          parts: [{ code: 'cron.check_not_ok', params: { check: 'disk', status: 'failing' } }],
        }),
        run(3, 'reconcile-invoices', 'ok', '3 invoice(s) checked, 2 credited, 1 no_change', {
          code: 'cron.invoices_checked',
          params: { count: 3 },
          parts: [
            { code: 'cron.invoices.credited', params: { count: 2 } },
            { code: 'cron.invoices.no_change', params: { count: 1 } },
          ],
        }),
        run(2, 'expire-ads', 'failed', 'disk on fire', { code: 'cron.failed', detail: 'disk on fire' }),
        run(1, 'expire-ads', 'ok', '1 ad expired', null),
      ],
      {
        says: () => ({
          code: 'cron.history_purged',
          params: { days: 30 },
          parts: [
            { code: 'cron.runs_purged', params: { count: 1 } },
            { code: 'cron.checks_purged', params: { count: 0 } },
          ],
        }),
      },
    );
    await i18n.changeLanguage('es');
    try {
      const user = userEvent.setup();
      renderAt(<CronJobs />, '/es/admin/dashboard/admin/cron-jobs');
      const table = await screen.findByRole('table', { name: 'Ejecuciones' });
      const messages = () =>
        within(table)
          .getAllByRole('row')
          .slice(1)
          .map((row) => within(row).getAllByRole('cell')[5].textContent);
      expect(messages()).toEqual([
        '6 comprobaciones, no todo bien: Espacio en disco: Con fallos.',
        '3 facturas comprobadas. 2 abonadas; 1 sin cambios.',
        'La tarea falló. Detalles: disk on fire',
        '1 ad expired',
      ]);
      await user.click(screen.getByRole('button', { name: /purge-old-runs/ }));
      expect((await screen.findByRole('status')).textContent).toBe(
        'La ejecución de purge-old-runs terminó: Correcta. Eliminado, por tener más de 30 días: 1 ejecución de tareas; 0 resultados de comprobaciones de estado.',
      );
      expect(srv.ran).toEqual(['purge-old-runs']);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('pages through the runs', async () => {
    const many: CronRun[] = Array.from({ length: 30 }, (_, i) => ({
      id: 30 - i,
      name: 'expire-ads',
      startedAt: new Date(Date.UTC(2025, 2, 1, 10, 30 - i)).toISOString(),
      finishedAt: new Date(Date.UTC(2025, 2, 1, 10, 30 - i, 1)).toISOString(),
      outcome: 'ok',
      message: `run ${30 - i}`,
      says: null,
    }));
    const srv = cronServer(many);
    const user = userEvent.setup();
    renderAt(<CronJobs />, '/admin/dashboard/admin/cron-jobs');
    await screen.findByText('run 30');
    expect(runRows()).toHaveLength(25);
    const pages = screen.getByRole('navigation', { name: 'Cron job run pages' });
    await user.click(within(pages).getByRole('button', { name: /next/i }));
    await screen.findByText('run 5');
    expect(runRows()).toHaveLength(5);
    expect(srv.queries.at(-1)!.get('page')).toBe('2');
  });
});
