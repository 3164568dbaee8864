import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { App } from '../../app/App';
import { setAgeConfirmed } from './ageConfirmation';
import type { PageView } from '../../api/analytics';

let views: PageView[];
beforeEach(() => {
  setAgeConfirmed(true);
  views = [];
  server.use(
    http.get('/api/session', () => apiJson('GET /api/session', { isAuthenticated: false, userRoles: ['GUEST_USER'] })),
    http.post('/api/analytics/pageview', async ({ request }) => {
      views.push((await request.json()) as PageView);
      return new HttpResponse(null, { status: 204 });
    }),
  );
});
afterEach(() => setAgeConfirmed(false));

describe('page views', () => {
  // A page view carries no query, not even as the next view's referrer: leaving the password-reset
  // page must not send its secret ?token= (nor a search page its words) in the next report.
  it('does not send the previous page\'s query (a reset token) as the next page view\'s referrer', async () => {
    window.history.replaceState(null, '', '/auth/reset-password?token=SECRET-RESET-TOKEN-123');
    render(<App />);
    await waitFor(() => expect(views.length).toBe(1));
    act(() => window.history.pushState(null, '', '/auth/login'));
    await waitFor(() => expect(views.length).toBe(2));
    expect(views[1]).toEqual({ path: '/auth/login', locale: 'en', referrer: `${window.location.origin}/auth/reset-password` });
  });
});
