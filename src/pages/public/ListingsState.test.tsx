import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Route } from 'wouter';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import type { AggregateLocation } from '../../../contract/api/listings';
import ListingsState from './ListingsState';

// The state page of a state with many cities: the largest twelve in full, the others behind an
// index of first letters (one letter a page), and a box that finds any city of the state.

const TYPES = ['female_esc', 'female_rub', 'shemale_esc'] as const;
type Code = (typeof TYPES)[number];
const SLUG: Record<Code, string> = { female_esc: 'female-escorts', female_rub: 'female-bodyrubs', shemale_esc: 'shemale-escorts' };

/** 30 cities of New York, each with a different number of ads of each type (Ávila among them: listed under A). */
const NAMES = [
  'Albany', 'Amherst', 'Ávila', 'Auburn', 'Batavia', 'Beacon', 'Binghamton', 'Buffalo', 'Cohoes', 'Corning',
  'Elmira', 'Fulton', 'Geneva', 'Hudson', 'Ithaca', 'Kingston', 'Lockport', 'Mount Vernon', 'Newburgh', 'New Rochelle',
  'Olean', 'Oneida', 'Oswego', 'Peekskill', 'Rochester', 'Rome', 'Salamanca', 'Troy', 'Utica', 'Yonkers',
];
const slugOf = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, '-');
const CITIES = NAMES.map((name, i) => ({
  name,
  slug: slugOf(name),
  // distinct totals (no ties), and each city has most ads of a type that depends on it
  ads: { female_esc: 3 * i + 1, female_rub: (i * 7) % 40, shemale_esc: i % 3 === 0 ? 60 + i : 0 } as Record<Code, number>,
}));
const total = (c: (typeof CITIES)[number], type?: Code) => (type ? c.ads[type] : TYPES.reduce((n, t) => n + c.ads[t], 0));
/** Largest first, ties by name. */
const byCount = (cs: typeof CITIES, type?: Code) => [...cs].sort((a, b) => total(b, type) - total(a, type) || a.name.localeCompare(b.name, 'en'));
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

// What the page should show, from the fixture alone.
function expected(type?: Code) {
  const withAds = byCount(CITIES.filter((c) => total(c, type) > 0), type);
  const top = withAds.slice(0, 12);
  const rest = withAds.slice(12);
  const letter = (n: string) => n.normalize('NFD')[0].toUpperCase();
  const letters = [...new Set(rest.map((c) => letter(c.name)))].sort();
  return { top, rest, letters, ofLetter: (l: string) => rest.filter((c) => letter(c.name) === l).sort((a, b) => a.name.localeCompare(b.name, 'en')) };
}
const best = (c: (typeof CITIES)[number]) => TYPES.reduce((b, t) => (c.ads[t] > c.ads[b] ? t : b), TYPES[0]);

function api() {
  const aggregates: string[] = [];
  server.use(
    http.get('/api/states-from-country', () =>
      apiJson('GET /api/states-from-country', {
        states: [{ id: 'ny', name: 'New York', code: 'NY', slug: 'new-york', countryCode: 'US', enabled: true }],
      }),
    ),
    http.get('/api/users-ads-aggregate/us/:type', ({ params, request }) => {
      const type = params.type as Code;
      aggregates.push(`${type}?${new URL(request.url).searchParams}`);
      const locations: AggregateLocation[] = CITIES.filter((c) => c.ads[type] > 0).map((c) => ({
        stateId: 'ny',
        stateSlug: 'new-york',
        stateName: 'New York',
        cityId: `ny-${c.slug}`,
        citySlug: c.slug,
        cityName: c.name,
        count: c.ads[type],
      }));
      return apiJson('GET /api/users-ads-aggregate/us/:listingType', { locations });
    }),
  );
  return aggregates;
}

const page = (path: string) => renderAt(<Route path="/listings/us/:state" component={ListingsState} />, path);

describe('state page', () => {
  it('shows the largest cities in full and indexes the others by first letter, without listing them', async () => {
    api();
    const want = expected();
    page('/listings/us/new-york');
    await screen.findByRole('heading', { level: 2, name: 'Largest cities' });
    const tops = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(tops).toEqual(want.top.map((c) => `${c.name} (${total(c)} ads)`));
    // each top city links to its list of every type it has ads of, and of no other
    const first = want.top[0];
    const item = screen.getAllByRole('heading', { level: 3 })[0].parentElement!;
    const hrefs = within(item)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(TYPES.filter((t) => first.ads[t] > 0).map((t) => `/listings/us/new-york/${first.slug}/${SLUG[t]}`));
    const index = screen.getByRole('navigation', { name: 'Cities by first letter' });
    const entries = within(index).getAllByRole('listitem').map((li) => li.textContent);
    expect(entries).toEqual(want.letters.map((l) => `${l} (${want.ofLetter(l).length})`));
    expect(within(index).getByRole('link', { name: /^A / }).getAttribute('href')).toBe('/listings/us/new-york?letter=a');
    // the other cities are not in the page until their letter is asked for
    for (const c of want.rest) expect(screen.queryByRole('link', { name: c.name })).toBeNull();
  });

  it('a letter is a page of its own: that letter’s cities by name, each to the list of its largest type', async () => {
    api();
    const want = expected();
    const user = userEvent.setup();
    const view = page('/listings/us/new-york');
    const index = await screen.findByRole('navigation', { name: 'Cities by first letter' });
    const letter = want.letters.find((l) => want.ofLetter(l).length > 1)!;
    await user.click(within(index).getByRole('link', { name: new RegExp(`^${letter} `) }));
    await waitFor(() => expect(view.currentPath()).toBe(`/listings/us/new-york?letter=${letter.toLowerCase()}`));
    const heading = await screen.findByRole('heading', { level: 3, name: `Cities starting with ${letter}` });
    const list = heading.nextElementSibling as HTMLElement;
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual(want.ofLetter(letter).map((c) => c.name));
    for (const c of want.ofLetter(letter)) {
      expect(within(list).getByRole('link', { name: c.name }).getAttribute('href')).toBe(`/listings/us/new-york/${c.slug}/${SLUG[best(c)]}`);
    }
    const current = within(screen.getByRole('navigation', { name: 'Cities by first letter' })).getByText(letter, { exact: false, selector: 'strong' });
    expect(current.getAttribute('aria-current')).toBe('page');
  });

  it('an accented name is under its plain letter; a letter no other city starts with is no page', async () => {
    api();
    const want = expected();
    expect(want.rest.map((c) => c.name)).toContain('Ávila');
    const a = page('/listings/us/new-york?letter=a');
    const heading = await screen.findByRole('heading', { level: 3, name: 'Cities starting with A' });
    expect(within(heading.nextElementSibling as HTMLElement).getByRole('link', { name: 'Ávila' })).toBeTruthy();
    a.unmount();
    const unused = 'QXZ'.split('').find((l) => !want.letters.includes(l))!;
    page(`/listings/us/new-york?letter=${unused.toLowerCase()}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });

  it('with a listing type, counts only that type and keeps it in the letters’ links', async () => {
    const aggregates = api();
    const want = expected('female_rub');
    page('/listings/us/new-york?type=female-bodyrubs');
    await screen.findByRole('heading', { level: 2, name: 'Largest cities' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(want.top.map((c) => `${c.name} (${total(c, 'female_rub')} ads)`));
    const index = screen.getByRole('navigation', { name: 'Cities by first letter' });
    const l = want.letters[0];
    expect(within(index).getByRole('link', { name: new RegExp(`^${l} `) }).getAttribute('href')).toBe(`/listings/us/new-york?type=female-bodyrubs&letter=${l.toLowerCase()}`);
    expect(aggregates.every((a) => a.startsWith('female_rub?'))).toBe(true);
  });

  it('the filter box finds any city of the state by part of its name, accents aside, and says when none matches', async () => {
    api();
    const user = userEvent.setup();
    page('/listings/us/new-york');
    const box = await screen.findByRole('searchbox', { name: 'Find a city' });
    await user.type(box, 'AVI');
    const found = byCount(CITIES.filter((c) => fold(c.name).includes('avi')));
    expect(found.length).toBeGreaterThan(1);
    const shown = () =>
      screen
        .getAllByRole('link')
        .map((a) => a.textContent ?? '')
        .filter((t) => fold(t).includes('avi'));
    await waitFor(() => expect(shown()).toEqual(found.map((c) => c.name)));
    // a top city is found too (it is one of the state's cities)
    await user.clear(box);
    await user.type(box, expected().top[0].name.slice(1, 5));
    expect(await screen.findAllByRole('link', { name: expected().top[0].name })).toHaveLength(1);
    await user.clear(box);
    await user.type(box, 'zzz');
    expect(await screen.findByText('No city here matches “zzz”.')).toBeTruthy();
  });
});
