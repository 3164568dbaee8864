import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSyncExternalStore, type ReactElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { I18nextProvider } from 'react-i18next';
import i18n from 'i18next';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { STATES } from '../../components/market/testing';
import ReportCrime from './ReportCrime';
import ContactUs from './ContactUs';
import LawEnforcement from './LawEnforcement';
import Search from './Search';

// A public page is the server's HTML for a while before its script has run (site.service.ts sends
// the script with a low priority): the visitor can fill its forms meanwhile. Here the page is
// rendered to a string as the server does, filled in the browser's DOM, then hydrated.

/** A location the server and the hydrating browser read alike (wouter's memoryLocation has no server snapshot). */
function location(start: string) {
  const history = [start];
  let listeners: (() => void)[] = [];
  const subscribe = (cb: () => void) => {
    listeners = [...listeners, cb];
    return () => (listeners = listeners.filter((l) => l !== cb));
  };
  const navigate = (to: string) => {
    history.push(to);
    listeners.forEach((l) => l());
  };
  const path = () => history[history.length - 1].split('?')[0];
  const search = () => history[history.length - 1].split('?')[1] ?? '';
  const usePath = () => [useSyncExternalStore(subscribe, path, path), navigate] as [string, (to: string) => void];
  const useQuery = () => useSyncExternalStore(subscribe, search, search);
  return { hook: usePath, searchHook: useQuery, current: () => history[history.length - 1] };
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

/** The page as the server sends it, in the document; `hydrate` lets React take it over. */
function served(page: () => ReactElement, path: string, base = '') {
  const loc = location(path);
  const tree = () => (
    <I18nextProvider i18n={i18n}>
      <Router base={base} hook={loc.hook} searchHook={loc.searchHook}>
        {page()}
      </Router>
    </I18nextProvider>
  );
  const container = document.createElement('div');
  container.innerHTML = renderToString(tree());
  document.body.appendChild(container);
  return {
    container,
    currentPath: loc.current,
    hydrate: () => act(() => void (root = hydrateRoot(container, tree()))),
  };
}

function captureReports() {
  const bodies: { kind: string; message: string; contact?: string | null; adId?: string | null }[] = [];
  server.use(
    http.post('/api/reports', async ({ request }) => {
      bodies.push((await request.json()) as (typeof bodies)[number]);
      return apiJson('POST /api/reports', { id: 'r1', createdAt: '2026-01-15T12:00:00.000Z' }, 201);
    }),
  );
  return bodies;
}

const REPORT = 'A girl who looks about fifteen is advertised in an ad I saw today in Buffalo.';

describe('a public form filled before hydration', () => {
  it('a trafficking report typed before hydration is the one sent; Send waits for the page to answer', async () => {
    const bodies = captureReports();
    const user = userEvent.setup();
    const page = served(() => <ReportCrime />, '/report-crime');
    const send = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    // The browser's own submit would reload the page and lose the report: not offered yet.
    expect(send().disabled).toBe(true);
    await user.type(screen.getByRole('textbox', { name: /What did you see/ }), REPORT);
    await user.type(screen.getByRole('textbox', { name: /Ad number/ }), 'abc123');
    page.hydrate();
    expect((screen.getByRole('textbox', { name: /What did you see/ }) as HTMLTextAreaElement).value).toBe(REPORT);
    expect(send().disabled).toBe(false);
    await user.click(send());
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ kind: 'trafficking', message: REPORT, adId: 'abc123', contact: null });
    expect(document.querySelectorAll('.field-error')).toHaveLength(0);
  });

  it('a contact message written before hydration, its topic chosen, is the one sent', async () => {
    const bodies = captureReports();
    const user = userEvent.setup();
    const page = served(() => <ContactUs />, '/contact-us');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByRole('textbox', { name: /Your name/ }), 'Ana');
    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ana@example.com');
    await user.selectOptions(screen.getByRole('combobox'), 'payment');
    await user.type(screen.getByRole('textbox', { name: /Message/ }), 'My deposit has not arrived yet.');
    page.hydrate();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ kind: 'contact', contact: 'ana@example.com', message: 'Topic: payment\nName: Ana\n\nMy deposit has not arrived yet.' });
  });

  it('a law-enforcement request filled before hydration is the one sent', async () => {
    const bodies = captureReports();
    const user = userEvent.setup();
    const page = served(() => <LawEnforcement />, '/law-enforcement');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByRole('textbox', { name: /Agency/ }), 'Buffalo PD');
    await user.type(screen.getByRole('textbox', { name: /Officer/ }), 'Det. Ruiz');
    await user.type(screen.getByRole('textbox', { name: /Official e-mail/ }), 'ruiz@buffalony.gov');
    await user.selectOptions(screen.getByRole('combobox'), 'preservation');
    await user.type(screen.getByRole('textbox', { name: /Details/ }), 'Please preserve the records of ad abc123.');
    page.hydrate();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      kind: 'law_enforcement',
      contact: 'ruiz@buffalony.gov',
      message: 'Request type: preservation\nAgency: Buffalo PD\nOfficer: Det. Ruiz\n\nPlease preserve the records of ad abc123.',
    });
  });
});

/** What a browser without scripts shows of the served page: `<noscript>` content is markup there. */
function withoutScripts(container: HTMLElement): Document {
  return new DOMParser().parseFromString(container.innerHTML, 'text/html');
}

// Without scripts (Tor Browser's "Safest" level, NoScript) the page stays the server's HTML and
// Send stays disabled: the page says why by the button, in its language.
describe('a public form in a browser without scripts', () => {
  it('the trafficking report says that sending needs JavaScript and points to the hotline, named by the disabled Send', async () => {
    const page = served(() => <ReportCrime />, '/report-crime');
    const doc = withoutScripts(page.container);
    const send = doc.querySelector('button[type="submit"]') as HTMLButtonElement;
    const note = doc.getElementById(send.getAttribute('aria-describedby') ?? '');
    expect(send.disabled).toBe(true);
    expect(note?.closest('noscript')).toBeTruthy();
    expect(note?.textContent).toBe(
      'Sending this form needs JavaScript, which is turned off in this browser. You can still report without it: call the National Human Trafficking Hotline at 1-888-373-7888 or text 233733, or, about a child, contact the NCMEC CyberTipline at 1-800-843-5678. To use this form, turn JavaScript on for this site or use another browser.',
    );
    // With scripts the note is never shown, and Send, once it answers, names it no longer.
    page.hydrate();
    expect(screen.getByRole('button', { name: 'Send' }).hasAttribute('aria-describedby')).toBe(false);
  });

  it('the contact and law-enforcement forms say so in the page’s language', async () => {
    await i18n.changeLanguage('es');
    try {
      for (const [form, path] of [
        [() => <ContactUs />, '/es/contact-us'],
        [() => <LawEnforcement />, '/es/law-enforcement'],
      ] as const) {
        const page = served(form, path, '/es');
        const doc = withoutScripts(page.container);
        const send = doc.querySelector('button[type="submit"]') as HTMLButtonElement;
        expect(send.disabled).toBe(true);
        expect(doc.getElementById(send.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
          'Para enviar este formulario hace falta JavaScript, que está desactivado en este navegador. Actívalo para este sitio o usa otro navegador para enviarlo.',
        );
        page.container.remove();
      }
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

describe('the search form before hydration', () => {
  it('is a form the browser can send itself: to the search page in the page language, with the names the page reads', async () => {
    await i18n.changeLanguage('es');
    try {
      const page = served(() => <Search />, '/es/search', '/es');
      const form = page.container.querySelector('form[role="search"]') as HTMLFormElement;
      expect({ action: form.getAttribute('action'), method: form.getAttribute('method') }).toEqual({ action: '/es/search', method: 'get' });
      // An empty search is the server's to refuse, as the app's page does: the button is not disabled yet.
      expect((form.querySelector('button[type="submit"]') as HTMLButtonElement).disabled).toBe(false);
      (form.elements.namedItem('query') as HTMLInputElement).value = 'rubia';
      (form.elements.namedItem('type') as HTMLSelectElement).value = 'female_esc';
      // What the browser's own submit sends: each named field's value (jsdom has no form submission).
      const sent = [...form.elements].flatMap((el) => (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) && el.name ? [[el.name, el.value]] : []);
      expect(sent).toEqual([
        ['query', 'rubia'],
        ['state', ''],
        ['type', 'female_esc'],
      ]);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('searches for what was typed and chosen before hydration, not what the page was served with', async () => {
    server.use(
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
      http.get('/api/search', () => apiJson('GET /api/search', { ads: [], total: 0, page: 1, pageSize: 20 })),
    );
    const user = userEvent.setup();
    const page = served(() => <Search />, '/search?query=blonde');
    const field = screen.getByRole('searchbox', { name: 'Search for' });
    await user.clear(field);
    await user.type(field, 'redhead');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Listing type' }), 'female_rub');
    page.hydrate();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(page.currentPath()).toBe('/search?query=redhead&type=female_rub'));
  });
});
