import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { App } from '../../app/App';
import { setAgeConfirmed } from './ageConfirmation';
import type { PageView } from '../../api/analytics';

// The whole app in jsdom: language switching keeps the path, <html lang> and the head follow,
// every route change reports a page view, and the context menu is off.

let views: PageView[];
beforeEach(() => {
  setAgeConfirmed(true);
  views = [];
  server.use(
    http.get('/api/session', () => apiJson('GET /api/session', { isAuthenticated: false, userRoles: ['GUEST_USER'] })),
    http.post('/api/analytics/pageview', async ({ request }) => {
      views.push((await request.json()) as PageView);
      return new HttpResponse(null, { status: 204 }); // no body: nothing for apiJson to check
    }),
  );
});
afterEach(() => setAgeConfirmed(false));

describe('public site', () => {
  it('switches language keeping the path, sets <html lang> and the title, and reports page views', async () => {
    window.history.replaceState(null, '', '/es/faq');
    const user = userEvent.setup();
    render(<App />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Preguntas frecuentes' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('es');
    await waitFor(() => expect(views).toEqual([{ path: '/es/faq', locale: 'es', referrer: null }]));

    await user.click(screen.getAllByRole('button', { name: 'Idioma' })[0]);
    await user.click(screen.getByRole('link', { name: 'Português' }));
    expect(window.location.pathname).toBe('/pt/faq');
    expect(await screen.findByRole('heading', { level: 1, name: 'Perguntas frequentes' })).toBeTruthy();
    await waitFor(() => expect(document.documentElement.lang).toBe('pt'));
    await waitFor(() => expect(document.title).toBe('Perguntas frequentes | XG Marketplace'));
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${window.location.origin}/pt/faq`);
    expect(document.head.querySelector('link[hreflang="es"]')?.getAttribute('href')).toBe(`${window.location.origin}/es/faq`);
    await waitFor(() => expect(views.at(-1)).toEqual({ path: '/pt/faq', locale: 'pt', referrer: `${window.location.origin}/es/faq` }));

    await user.click(screen.getAllByRole('button', { name: 'Idioma' })[0]);
    await user.click(screen.getByRole('link', { name: 'English' }));
    expect(window.location.pathname).toBe('/faq');
    expect(await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeTruthy();
    await waitFor(() => expect(document.documentElement.lang).toBe('en'));
  });

  it('has the landmarks, a footer link to every public page, and no context menu', async () => {
    window.history.replaceState(null, '', '/about-us');
    render(<App />);
    await screen.findByRole('heading', { level: 1, name: 'About us' });
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    const footer = await screen.findByRole('contentinfo');
    const hrefs = [...footer.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    for (const p of ['/', '/listings/us', '/admin/dashboard/create-ads', '/about-us', '/faq', '/contact-us', '/report-crime', '/law-enforcement', '/transparency', '/terms', '/agreement', '/auth/login', '/auth/register']) {
      expect(hrefs, p).toContain(p);
    }
    expect(footer.textContent).toContain(`© ${new Date().getFullYear()} XG Marketplace`);
    expect(footer.querySelectorAll('img[src^="/badges/"]')).toHaveLength(2);
    expect(fireEvent.contextMenu(screen.getByRole('main'))).toBe(false); // default prevented
  });
});
