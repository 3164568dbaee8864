import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import i18n from 'i18next';
import { Router } from 'wouter';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiError } from '../market/testing';
import ReportCrime from '../../pages/public/ReportCrime';

describe('useReportForm on an answer without a message', () => {
  // A trafficking report that fails on a gateway error (502 with an HTML body, no {message, code})
  // tells the visitor, in the page's language, that something went wrong, like every other screen
  // (errorMessage): never ky's English ("Request failed with status code 502…") with the request's URL.
  it('says "Algo salió mal." on the Spanish trafficking form when the answer is a 502 page', async () => {
    server.use(
      http.post('/api/reports', () => new HttpResponse('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'content-type': 'text/html' } })),
    );
    await i18n.changeLanguage('es');
    const user = userEvent.setup();
    renderAt(
      <Router base="/es">
        <ReportCrime />
      </Router>,
      '/es/report-crime',
    );
    const boxes = screen.getAllByRole('textbox');
    await user.type(boxes[0], 'Una chica en un anuncio parece tener 15 años.');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('No se pudo enviar tu mensaje: Algo salió mal.');
  });
});

describe('useReportForm after a language switch', () => {
  // The refusal is kept as the error and worded at render: switching to Spanish re-words it.
  it('words a refused report again in Spanish, and the hourly limit’s own text too', async () => {
    let limited = false;
    server.use(
      http.post('/api/reports', () =>
        limited ? apiError('POST /api/reports', 429, 'reports.too_many') : new HttpResponse('<html>502</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      ),
    );
    const user = userEvent.setup();
    renderAt(<ReportCrime />, '/report-crime');
    await user.type(screen.getAllByRole('textbox')[0], 'A girl in an ad looks 15 years old.');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your message could not be sent: Something went wrong.');
    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByRole('alert').textContent).toBe('No se pudo enviar tu mensaje: Algo salió mal.');

    limited = true;
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Enviaste muchos mensajes en la última hora. Inténtalo de nuevo más tarde.')).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByRole('alert').textContent).toBe('You have sent many messages in the last hour. Please try again later.');
  });
});
