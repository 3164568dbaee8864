import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route } from 'wouter';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { apiError, makeAd } from '../../components/market/testing';
import i18n from 'i18next';
import type { ErrorBody } from '../../../contract/errors/index.ts';
import AdDetail from './AdDetail';

// Error answers are checked against the route's 4xx schema at run time (apiJson's static type only
// knows the numbered answers, hence `as never`).
const NOT_FOUND: ErrorBody = { message: 'Ad not found.', code: 'listings.ad_not_found' };

describe('ad page', () => {
  it('shows the ad, steps through photos from the keyboard, and sends a report from a labelled dialog', async () => {
    const ad = makeAd({
      title: 'Sunny afternoons together',
      photos: [
        { url: '/uploads/a.jpg', width: 800, height: 600, thumbUrl: '/uploads/a-thumb.jpg' },
        { url: '/uploads/b.jpg', width: 800, height: 600, thumbUrl: '/uploads/b-thumb.jpg' },
      ],
    });
    let report: unknown = null;
    server.use(
      http.get('/api/ads/:id', ({ params }) =>
        params.id === ad.id
          ? apiJson('GET /api/ads/:id', { ad })
          : apiJson('GET /api/ads/:id', NOT_FOUND as never, 404),
      ),
      http.post('/api/report-ad/:id', async ({ request, params }) => {
        report = { id: params.id, body: await request.json() };
        return apiJson('POST /api/report-ad/:id', { id: 'r1', createdAt: '2026-01-15T12:00:00.000Z' }, 201);
      }),
    );
    const user = userEvent.setup();
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${ad.id}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Sunny afternoons together' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '(212) 555-0123' }).getAttribute('href')).toBe('tel:+12125550123');
    const thumbs = screen.getByRole('list', { name: 'Photos' });
    const second = within(thumbs).getByRole('button', { name: 'Show photo 2 of 2' });
    second.focus();
    await user.keyboard('{Enter}');
    expect(second.getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('img', { name: 'Sunny afternoons together, photo 2 of 2' }).getAttribute('src')).toBe('/uploads/b.jpg');
    await user.click(screen.getByRole('button', { name: 'View photo 2 of 2 larger' }));
    const large = screen.getByRole('dialog', { name: 'Sunny afternoons together, photo 2 of 2' });
    await user.click(within(large).getByRole('button', { name: 'Next photo' }));
    expect(screen.getByRole('dialog', { name: 'Sunny afternoons together, photo 1 of 2' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Report this ad' }));
    const dialog = screen.getByRole('dialog', { name: 'Report this ad' });
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(report).toBeNull(); // an empty message is refused before sending
    await user.type(within(dialog).getByLabelText('What is wrong?'), 'This person looks far too young.');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByText('Thank you. Your report was sent to our staff.')).toBeTruthy();
    expect(report).toEqual({ id: ad.id, body: { message: 'This person looks far too young.' } });
  });

  // An ad written in Hebrew or Arabic (right to left) inside the site's left-to-right page: without
  // a direction of its own the browser lays it out left to right, so "מחיר 200 לשעה" ("price 200 per
  // hour") reads in the wrong order, its punctuation on the wrong side. The ad's own texts take the
  // direction of their first strong letter (dir="auto").
  it('gives the ad’s title and description their own direction (dir="auto")', async () => {
    const title = 'דנה, נעימה ודיסקרטית! 200$ לשעה';
    const description = 'שלום! אני דנה, 30, בניו יורק.\nמחיר 200 לשעה, 350 לשעתיים — התקשרו.';
    const ad = makeAd({ title, description });
    server.use(http.get('/api/ads/:id', () => apiJson('GET /api/ads/:id', { ad })));
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${ad.id}`);
    const h1 = await screen.findByRole('heading', { level: 1, name: title });
    const p = screen.getByText((_, el) => el?.tagName === 'P' && el.textContent === description);
    expect({ title: h1.getAttribute('dir'), description: p.getAttribute('dir') }).toEqual({ title: 'auto', description: 'auto' });
  });

  // Hours are stored as typed, in the local time of the ad's city: the page names it.
  it('says the hours are the local time of the ad’s city', async () => {
    const ad = makeAd({ details: { rates: [], incall: false, outcall: false, availability: { fri: { from: '20:00', to: '02:00' } } } });
    server.use(http.get('/api/ads/:id', () => apiJson('GET /api/ads/:id', { ad })));
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${ad.id}`);
    const section = await screen.findByRole('region', { name: 'Rates and hours' });
    expect(within(section).getByRole('heading', { level: 2 }).textContent).toBe('Hours (local time in New York City)');
    expect(within(section).getByText('20:00–02:00')).toBeTruthy();
  });

  it('says the ad is not available on 404', async () => {
    server.use(http.get('/api/ads/:id', () => apiJson('GET /api/ads/:id', NOT_FOUND as never, 404)));
    renderAt(<Route path="/ad/:id" component={AdDetail} />, '/ad/nope');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This ad is not available. It may have expired or been removed.'));
  });

  it('says why the ad could not be loaded when the server is busy, in the page language', async () => {
    server.use(http.get('/api/ads/:id', () => apiError('GET /api/ads/:id', 503, 'request.busy')));
    renderAt(<Route path="/ad/:id" component={AdDetail} />, '/ad/ad-busy');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The server is busy. Please try again in a minute.'));
    await i18n.changeLanguage('pt');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('O servidor está ocupado. Tente novamente em um minuto.'));
  });

  it('says something went wrong when the ad cannot be reached at all', async () => {
    server.use(http.get('/api/ads/:id', () => HttpResponse.error()));
    renderAt(<Route path="/ad/:id" component={AdDetail} />, '/ad/ad-offline');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Something went wrong.'));
  });
});
