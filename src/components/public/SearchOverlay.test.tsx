import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, delay } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import type { State } from '../../api/locations';
import SearchOverlay, { CLOSE_AFTER_CLOSE_MS, CLOSE_AFTER_SUBMIT_MS } from './SearchOverlay';

const STATES: State[] = [
  { id: 'ny', name: 'New York', code: 'NY', slug: 'new-york', countryCode: 'US', enabled: true },
  { id: 'tx', name: 'Texas', code: 'TX', slug: 'texas', countryCode: 'US', enabled: true },
];

/**
 * The closing delays are checked on a fake clock, to the millisecond. User events move the same
 * clock; testing-library drains React's work with a setTimeout(0) that it advances only when it
 * sees Jest's fake timers, so it is shown Vitest's under that name.
 */
function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function statesApi(responses: Array<'empty' | 'states' | 'error'>) {
  const calls: string[] = [];
  server.use(
    http.get('/api/states-from-country', async ({ request }) => {
      calls.push(request.url);
      const r = responses[Math.min(calls.length - 1, responses.length - 1)];
      await delay(30);
      const route = 'GET /api/states-from-country';
      if (r === 'error') return apiJson(route, { message: 'The server is busy. Please try again in a minute.', code: 'request.busy' } as never, 503 as never);
      return apiJson(route, { states: r === 'states' ? STATES : [] });
    }),
  );
  return calls;
}

describe('search overlay', () => {
  it('requires a query: submit is disabled until it is valid and an emptied field says so', async () => {
    statesApi(['states']);
    const user = useFakeClock();
    const onClose = vi.fn();
    const r = renderAt(<SearchOverlay onClose={onClose} />, '/faq');
    const dialog = screen.getByRole('dialog', { name: 'Search ads' });
    const input = screen.getByRole('searchbox', { name: 'What are you looking for?' });
    const submit = screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement;
    expect(document.activeElement).toBe(input);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(submit.disabled).toBe(true);
    await user.type(input, 'ab');
    await user.clear(input);
    expect(screen.getByRole('alert').textContent).toBe('You must enter search criteria');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(submit.disabled).toBe(true);
    await user.type(input, '   ');
    expect(submit.disabled).toBe(true);
    await user.type(input, 'buffalo blonde');
    expect(submit.disabled).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(submit);
    expect(r.currentPath()).toBe('/search?query=buffalo%20blonde');
    expect(onClose).not.toHaveBeenCalled();
    expect(CLOSE_AFTER_SUBMIT_MS).toBe(200);
    await advance(CLOSE_AFTER_SUBMIT_MS - 1);
    expect(onClose).not.toHaveBeenCalled();
    await advance(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  // Every word is required and none is dropped: past 8 distinct words the overlay says so and does not search.
  it('refuses a ninth distinct word', async () => {
    statesApi(['states']);
    const user = userEvent.setup();
    const r = renderAt(<SearchOverlay onClose={vi.fn()} />, '/faq');
    const input = screen.getByRole('searchbox', { name: 'What are you looking for?' });
    const submit = screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement;
    await user.type(input, 'one two three four five six seven eight nine');
    expect(screen.getByRole('alert').textContent).toBe('Search for at most 8 different words.');
    expect(submit.disabled).toBe(true);
    await user.type(input, '{Enter}');
    expect(r.currentPath()).toBe('/faq');
  });

  // PRODUCT §10: the client shows the server's rules. Punctuation or symbols alone hold no word,
  // and the server answers them validation.search_required: the overlay says so and does not search.
  it('refuses a query without any word, as the server does', async () => {
    statesApi(['states']);
    const user = userEvent.setup();
    const r = renderAt(<SearchOverlay onClose={vi.fn()} />, '/faq');
    const input = screen.getByRole('searchbox', { name: 'What are you looking for?' });
    const submit = screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement;
    for (const query of ['!!!', '😀', '- -']) {
      await user.clear(input);
      await user.type(input, query);
      expect(screen.getByRole('alert').textContent, query).toBe('You must enter search criteria');
      expect(submit.disabled, query).toBe(true);
      await user.type(input, '{Enter}');
      expect(r.currentPath()).toBe('/faq');
    }
    await user.type(input, ' x');
    expect(submit.disabled).toBe(false);
  });

  it('closes 1000 ms after the close button (or Escape)', async () => {
    statesApi(['states']);
    const user = useFakeClock();
    const onClose = vi.fn();
    renderAt(<SearchOverlay onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Close search' }));
    expect(CLOSE_AFTER_CLOSE_MS).toBe(1000);
    await advance(CLOSE_AFTER_CLOSE_MS - 1);
    expect(onClose).not.toHaveBeenCalled();
    await advance(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close search' })); // closing already: no second timer
    await advance(5 * CLOSE_AFTER_CLOSE_MS);
    expect(onClose).toHaveBeenCalledTimes(1);
    const onClose2 = vi.fn();
    renderAt(<SearchOverlay onClose={onClose2} />);
    await user.keyboard('{Escape}');
    await advance(CLOSE_AFTER_CLOSE_MS - 1);
    expect(onClose2).not.toHaveBeenCalled();
    await advance(1);
    expect(onClose2).toHaveBeenCalledTimes(1);
  });

  it('state picker: loads when it appears, shows name and country code, needs a choice, goes to the state', async () => {
    const calls = statesApi(['states']);
    const user = userEvent.setup();
    const r = renderAt(<SearchOverlay onClose={() => {}} />, '/');
    const select = screen.getByRole('combobox', { name: 'State' }) as HTMLSelectElement;
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Loading states…'));
    expect(select.options[0].textContent).toBe('Loading states…');
    await screen.findByRole('option', { name: 'New York, US' });
    expect(calls).toHaveLength(1);
    const go = screen.getByRole('button', { name: 'Show listings' }) as HTMLButtonElement;
    expect(go.disabled).toBe(true);
    await user.selectOptions(select, 'new-york');
    expect(go.disabled).toBe(false);
    await user.click(go);
    expect(r.currentPath()).toBe('/listings/us/new-york');
  });

  it('state picker: "All states" goes to the country page; an empty list loads again when opened', async () => {
    const calls = statesApi(['empty', 'states']);
    const user = userEvent.setup();
    const r = renderAt(<SearchOverlay onClose={() => {}} />, '/');
    await waitFor(() => expect(calls).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(''));
    expect(screen.queryByRole('option', { name: 'Texas, US' })).toBeNull();
    await user.click(screen.getByRole('combobox', { name: 'State' }));
    expect(calls).toHaveLength(2);
    await screen.findByRole('option', { name: 'Texas, US' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), '*');
    await user.click(screen.getByRole('button', { name: 'Show listings' }));
    expect(r.currentPath()).toBe('/listings/us');
  });

  it('state picker: says when the states could not be loaded, and tries again on request', async () => {
    const calls = statesApi(['error', 'states']);
    const user = userEvent.setup();
    renderAt(<SearchOverlay onClose={() => {}} />, '/');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('The list of states could not be loaded.Try again'));
    expect(screen.queryByRole('option', { name: 'New York, US' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('option', { name: 'New York, US' });
    expect(calls).toHaveLength(2);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
