import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import i18n from 'i18next';
import { renderAt } from '../../test/render';
import { AdDetailsView, ContactButtons, hoursSummary } from './AdExtras';

const DETAILS = {
  rates: [
    { minutes: 30, priceCents: 12000 },
    { minutes: 90, priceCents: 30000 },
    { minutes: 1440, priceCents: 150000 },
  ],
  incall: true,
  outcall: true,
  availability: { mon: { from: '10:00', to: '22:00' }, sat: { from: '20:00', to: '02:00' } },
};

describe('an ad’s rates, hours and contact buttons', () => {
  it('shows the rates, incall / outcall and the hours of the available days', () => {
    renderAt(<AdDetailsView details={DETAILS} />);
    const section = screen.getByRole('region', { name: 'Rates and hours' });
    const rows = within(section)
      .getAllByRole('row')
      .map((r) =>
        within(r)
          .queryAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows.slice(1)).toEqual([
      ['30 minutes', '$120.00'],
      ['1 h 30 min', '$300.00'],
      ['24 hours', '$1,500.00'],
    ]);
    expect(within(section).getByText('Incall and outcall')).toBeTruthy();
    expect([...section.querySelectorAll('dt')].map((d) => `${d.textContent} ${d.nextElementSibling?.textContent}`)).toEqual([
      'Monday 10:00–22:00',
      'Saturday 20:00–02:00',
    ]);
  });

  // Hours are stored as typed ('HH:MM', no zone), in the local time of the ad's city: wherever
  // they are shown they say so, naming the city where it is known (the ad page).
  it('says the hours are local time, naming the ad’s city when given', () => {
    const view = renderAt(<AdDetailsView details={DETAILS} city="Los Angeles" />);
    const section = screen.getByRole('region', { name: 'Rates and hours' });
    expect(within(section).getByRole('heading', { name: /^Hours/ }).textContent).toBe('Hours (local time in Los Angeles)');
    view.unmount();
    renderAt(<AdDetailsView details={DETAILS} />);
    expect(screen.getByRole('heading', { name: /^Hours/ }).textContent).toBe('Hours (local time)');
    expect(hoursSummary(i18n.t, DETAILS)).toBe('Monday 10:00–22:00 · Saturday 20:00–02:00 (local time)');
    expect(hoursSummary(i18n.t, { ...DETAILS, availability: {} })).toBe('');
  });

  it('shows nothing for an ad without any of them', () => {
    const view = renderAt(<AdDetailsView details={{ rates: [], incall: false, outcall: false, availability: {} }} />);
    expect(view.container.innerHTML).toBe('');
  });

  it('calls and texts the ad’s number, with names in the page’s language', async () => {
    const view = renderAt(<ContactButtons phone="+12125550123" />);
    expect(screen.getByRole('link', { name: 'Call' }).getAttribute('href')).toBe('tel:+12125550123');
    expect(screen.getByRole('link', { name: 'Text' }).getAttribute('href')).toBe('sms:+12125550123');
    view.unmount();
    await i18n.changeLanguage('pt');
    renderAt(<ContactButtons phone="+12125550123" />);
    expect(screen.getByRole('link', { name: 'Ligar' }).getAttribute('href')).toBe('tel:+12125550123');
    expect(screen.getByRole('link', { name: 'Enviar SMS' }).getAttribute('href')).toBe('sms:+12125550123');
  });

  // The rates are part of a server-rendered page: amounts follow the page's language (pt writes
  // "US$ 120,00"), taken from the i18n instance the page renders with, never a global one. The
  // server renders each language with its own instance while the browser's global i18n may speak
  // another, and the browser must hydrate the very same text.
  it('writes the rates in the page’s language, the same on the server render as in the browser', async () => {
    const ptServer = i18n.cloneInstance({ lng: 'pt' });
    expect(i18n.language).toBe('en'); // the global instance speaks another language meanwhile
    const serverHtml = renderToString(
      <I18nextProvider i18n={ptServer}>
        <AdDetailsView details={DETAILS} />
      </I18nextProvider>,
    );
    const pt = (n: number) => new Intl.NumberFormat('pt', { style: 'currency', currency: 'USD' }).format(n);
    expect(pt(1500)).toMatch(/1\.500,00/);
    for (const n of [120, 300, 1500]) expect(serverHtml).toContain(`<td>${pt(n)}</td>`);

    await i18n.changeLanguage('pt');
    const { container } = renderAt(<AdDetailsView details={DETAILS} />, '/pt');
    const hydrated = document.createElement('div');
    hydrated.innerHTML = serverHtml; // the server's markup as the browser reads it
    expect(container.innerHTML).toBe(hydrated.innerHTML);
  });
});
