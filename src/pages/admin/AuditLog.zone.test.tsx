import { afterAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import AuditLog from './AuditLog';

// A moderator in Hawaii (UTC−10, no DST); moved from a probe (round 11). The zone is this process's
// until the file ends: put back for the files the same worker runs next.
const zone = process.env.TZ;
process.env.TZ = 'Pacific/Honolulu';
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('audit log: filtered by UTC days, read in Hawaii', () => {
  // Expected: the "When" column and the day filters speak of the same days. The filters are UTC
  // days ("From (UTC day)", "Through (UTC day, included)"), so a row the filter 2026-03-07..2026-03-07
  // returns must read as March 7 (in UTC, or with its zone named). It is printed with
  // toLocaleString in the browser's zone with no zone named: an action staff took at 01:00 UTC on
  // March 7 reads "3/6/2026, 3:00:00 PM", so the log filtered "through March 7" lists March 6 rows and
  // leaves out the rows it shows as "3/7/2026 … PM". An investigator reading "what did this admin do
  // on March 7" gets the wrong set, with nothing on screen saying why.
  it('shows a row matched by the UTC day filter 2026-03-07 as March 7 (or names its zone)', async () => {
    const queries: Record<string, string>[] = [];
    server.use(
      http.get('/api/admin/get-audit-log', ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        queries.push(q);
        const inRange = q.since === '2026-03-07' && q.until === '2026-03-08';
        return apiJson('GET /api/admin/get-audit-log', {
          auditLog: inRange
            ? [
                {
                  id: 7,
                  actorId: 'm1',
                  actorEmail: 'boss@example.com',
                  action: 'user.status',
                  targetType: 'user',
                  targetId: 'u2',
                  before: { status: 'approved' },
                  after: { status: 'suspended' },
                  at: '2026-03-07T01:00:00.000Z',
                },
              ]
            : [],
          total: inRange ? 1 : 0,
        });
      }),
    );
    const ue = userEvent.setup();
    renderAt(<AuditLog />, '/admin/dashboard/admin/audit-log');
    await waitFor(() => expect(queries.length).toBeGreaterThan(0));
    await ue.type(screen.getByLabelText('From (UTC day)'), '2026-03-07');
    await ue.type(screen.getByLabelText('Through (UTC day, included)'), '2026-03-07');
    await ue.click(screen.getByRole('button', { name: 'Filter' }));
    const row = (await screen.findByText('user.status')).closest('tr')!;
    const when = within(row).getByText((_, el) => el?.tagName === 'TIME');
    expect(when.textContent).toBe('3/7/2026, 1:00:00 AM UTC');
  });
});
