import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { ReportDialog } from './ReportDialog';

// The ad page's report dialog: a box marks a report about a person who may be a minor or trafficked,
// which the server files as an urgent trafficking tip about the ad (POST /api/report-ad/:id, `urgent`).
describe('report dialog', () => {
  function sent(): { bodies: unknown[] } {
    const seen = { bodies: [] as unknown[] };
    server.use(
      http.post('/api/report-ad/:id', async ({ request }) => {
        seen.bodies.push(await request.json());
        return apiJson('POST /api/report-ad/:id', { id: 'r1', createdAt: '2026-01-15T12:00:00.000Z' }, 201);
      }),
    );
    return seen;
  }

  it('sends `urgent` only when the sender ticks the box', async () => {
    const seen = sent();
    const user = userEvent.setup();
    renderAt(<ReportDialog adId="ad1" onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Report this ad' });
    const box = within(dialog).getByRole('checkbox', { name: 'The person may be a minor or trafficked' });
    expect((box as HTMLInputElement).checked).toBe(false);
    await user.type(within(dialog).getByLabelText('What is wrong?'), 'She looked fifteen and scared.');
    await user.click(box);
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByText('Thank you. Your report was sent to our staff.')).toBeTruthy();
    expect(seen.bodies).toEqual([{ message: 'She looked fifteen and scared.', urgent: true }]);
  });

  it('labels the box in Spanish and Portuguese', async () => {
    for (const [lng, label] of [
      ['es', 'La persona podría ser menor de edad o víctima de trata'],
      ['pt', 'A pessoa pode ser menor de idade ou vítima de tráfico'],
    ] as const) {
      await i18n.changeLanguage(lng);
      const view = renderAt(<ReportDialog adId="ad1" onClose={() => {}} />);
      expect(screen.getByRole('checkbox', { name: label })).toBeTruthy();
      view.unmount();
    }
    await i18n.changeLanguage('en');
  });

  // A keyboard user who sent the report with Enter: focus stays in the dialog (not on <body>, where
  // the dialog's Escape handler cannot hear it), and Escape closes it.
  it('keeps focus in the dialog after sending, so Escape closes it', async () => {
    sent();
    const user = userEvent.setup();
    let closed = 0;
    renderAt(<ReportDialog adId="ad1" onClose={() => closed++} />);
    const dialog = screen.getByRole('dialog', { name: 'Report this ad' });
    await user.type(within(dialog).getByLabelText('What is wrong?'), 'The photos are of someone else.');
    within(dialog).getByRole('button', { name: 'Send report' }).focus();
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('Thank you. Your report was sent to our staff.')).toBeTruthy();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(closed).toBe(1);
  });
});
