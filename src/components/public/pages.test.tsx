import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import ReportCrime from '../../pages/public/ReportCrime';
import ContactUs from '../../pages/public/ContactUs';
import LawEnforcement from '../../pages/public/LawEnforcement';
import Home from '../../pages/public/Home';
import Faq from '../../pages/public/Faq';
import type { ErrorBody } from '../../../contract/errors/index.ts';

// Error answers are checked against the route's 4xx schema at run time (apiJson's static type only
// knows the numbered answers, hence `as never`).

const REFUSALS: Record<'reports' | 'api', ErrorBody> = {
  reports: { message: 'Too many reports from your address. Please try again in an hour.', code: 'reports.too_many' },
  api: { message: 'Too many requests. Please wait and try again.', code: 'request.rate_limited' },
};

/** Answers POST /api/reports: filed, or refused by the reports' hourly limit or the API-wide one. */
function captureReports(answer: 'filed' | 'reports' | 'api' = 'filed') {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/reports', async ({ request }) => {
      bodies.push(await request.json());
      return answer === 'filed'
        ? apiJson('POST /api/reports', { id: 'r1', createdAt: '2026-01-15T12:00:00.000Z' }, 201)
        : apiJson('POST /api/reports', REFUSALS[answer] as never, 429);
    }),
  );
  return bodies;
}

describe('report forms', () => {
  it('report trafficking: shows the hotline, checks the message, sends anonymously and confirms', async () => {
    const bodies = captureReports();
    const user = userEvent.setup();
    renderAt(<ReportCrime />, '/report-crime');
    expect(screen.getByRole('link', { name: '1-888-373-7888' }).getAttribute('href')).toBe('tel:+18883737888');
    expect(screen.getByRole('link', { name: '233733' }).getAttribute('href')).toBe('sms:233733');
    const what = screen.getByRole('textbox', { name: /What did you see/ });
    await user.type(what, 'short');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Please write at least 10 characters.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(what));
    expect(bodies).toHaveLength(0);
    await user.type(what, ' — a girl who looks 15 in ad on Main St');
    await user.type(screen.getByRole('textbox', { name: /Ad number/ }), 'https://xg.example/ad/abc123');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/Your report has reached our safety team/)).toBeTruthy();
    expect(bodies).toEqual([{ kind: 'trafficking', message: 'short — a girl who looks 15 in ad on Main St', adId: 'abc123', contact: null }]);
  });

  it('contact us: needs an e-mail, sends kind contact, and shows the rate-limit message in words', async () => {
    const bodies = captureReports('reports');
    const user = userEvent.setup();
    renderAt(<ContactUs />, '/contact-us');
    await user.type(screen.getByRole('textbox', { name: /Message/ }), 'How do I change my nickname please?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Enter a valid e-mail address.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'You have sent many messages in the last hour. Please try again later.');
    expect(bodies).toEqual([{ kind: 'contact', contact: 'ann@example.com', message: 'Topic: account\n\nHow do I change my nickname please?' }]);
  });

  it('any other refusal shows the server message in the page language', async () => {
    const bodies = captureReports('api');
    const user = userEvent.setup();
    renderAt(<ReportCrime />, '/report-crime');
    await user.type(screen.getByRole('textbox', { name: /What did you see/ }), 'Someone in an ad looks far too young.');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Your message could not be sent: Too many requests. Please wait and try again.');
    expect(bodies).toHaveLength(1);
  });

  it('law enforcement: requires agency, officer and official e-mail, and files the request with its particulars', async () => {
    const bodies = captureReports();
    const user = userEvent.setup();
    renderAt(<LawEnforcement />, '/law-enforcement');
    expect(screen.getByRole('heading', { name: 'Preservation requests' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    await user.type(screen.getByRole('textbox', { name: /^Agency/ }), 'Buffalo PD');
    await user.type(screen.getByRole('textbox', { name: /Officer name/ }), 'Det. Jane Roe #4411');
    await user.type(screen.getByRole('textbox', { name: /Official e-mail/ }), 'jroe@bpd.example.gov');
    await user.selectOptions(screen.getByRole('combobox', { name: /Type of request/ }), 'preservation');
    await user.type(screen.getByRole('textbox', { name: /^Details/ }), 'Preserve ad abc123 and its account.');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/Your request has been received and logged/)).toBeTruthy();
    expect(bodies).toEqual([{
      kind: 'law_enforcement',
      contact: 'jroe@bpd.example.gov',
      message: 'Request type: preservation\nAgency: Buffalo PD\nOfficer: Det. Jane Roe #4411\n\nPreserve ad abc123 and its account.',
    }]);
  });
});

describe('content pages', () => {
  it('the FAQ answers at least 15 questions', () => {
    renderAt(<Faq />, '/faq');
    expect(document.querySelectorAll('details summary').length).toBeGreaterThanOrEqual(15);
    expect(screen.getByText('How do I add money with Bitcoin?')).toBeTruthy();
  });

  it('home shows listing types and top states from /api/home', async () => {
    server.use(http.get('/api/home', () => apiJson('GET /api/home', {
      types: [{ listingType: 'female_esc', count: 12 }, { listingType: 'female_rub', count: 1 }, { listingType: 'shemale_esc', count: 0 }],
      topStates: [{ stateId: 'ny', slug: 'new-york', name: 'New York', count: 9 }],
    })));
    renderAt(<Home />, '/');
    const states = await screen.findByRole('link', { name: /New York/ });
    expect(states.getAttribute('href')).toBe('/listings/us/new-york');
    expect(screen.getByText('12 ads')).toBeTruthy();
    expect(screen.getByText('1 ad')).toBeTruthy();
  });

  it('home still works when /api/home is missing', async () => {
    const NOT_FOUND: ErrorBody = { message: 'Not found.', code: 'request.not_found' };
    server.use(http.get('/api/home', () => apiJson('GET /api/home', NOT_FOUND as never, 404)));
    renderAt(<Home />, '/');
    expect(await screen.findByText('The latest counts could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Female escorts' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See all states' }).getAttribute('href')).toBe('/listings/us');
  });
});

