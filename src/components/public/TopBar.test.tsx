import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { App } from '../../app/App';
import { setAgeConfirmed } from './ageConfirmation';

// The bar's logo (and the footer's and the menu's home) links a language's home by its one URL (/es, as its canonical says; /es/ answers
// a redirect there), and the browser's router still shows the home page when it is followed.

beforeEach(() => {
  setAgeConfirmed(true);
  server.use(
    http.get('/api/session', () => apiJson('GET /api/session', { isAuthenticated: false, userRoles: ['GUEST_USER'] })),
    http.get('/api/home', () => apiJson('GET /api/home', { types: [], topStates: [] })),
    http.post('/api/analytics/pageview', () => new HttpResponse(null, { status: 204 })),
  );
  return () => setAgeConfirmed(false);
});

describe('top bar', () => {
  it("links the logo to the language's home as /es and shows that home when followed", async () => {
    window.history.replaceState(null, '', '/es/faq');
    const user = userEvent.setup();
    render(<App />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Preguntas frecuentes' })).toBeTruthy();
    const logo = within(screen.getByRole('banner')).getByRole('link', { name: /XG/ });
    expect(logo.getAttribute('href')).toBe('/es');
    await user.click(logo);
    expect(window.location.pathname).toBe('/es');
    expect(await screen.findByRole('heading', { level: 1, name: 'Anuncios de compañía para adultos, estado por estado' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('es');
  });

  it("links the footer's home as /pt too", async () => {
    window.history.replaceState(null, '', '/pt/faq');
    render(<App />);
    await screen.findByRole('heading', { level: 1, name: 'Perguntas frequentes' });
    const footer = screen.getByRole('contentinfo');
    const homes = within(footer).getAllByRole('link').filter((a) => a.getAttribute('href')?.replace(/\/$/, '') === '/pt');
    expect(homes.map((a) => a.getAttribute('href'))).toEqual(['/pt']);
  });

  it('links the logo to / in English', async () => {
    window.history.replaceState(null, '', '/faq');
    render(<App />);
    await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' });
    expect(within(screen.getByRole('banner')).getByRole('link', { name: /XG/ }).getAttribute('href')).toBe('/');
  });
});
