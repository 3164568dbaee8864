import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, delay } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import SearchOverlay, { CLOSE_AFTER_CLOSE_MS, CLOSE_AFTER_SUBMIT_MS } from './SearchOverlay';

const STATES = [
  { id: 'ny', name: 'New York', code: 'NY', slug: 'new-york', countryCode: 'US', enabled: true },
  { id: 'tx', name: 'Texas', code: 'TX', slug: 'texas', countryCode: 'US', enabled: true },
];
const sleep = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

function statesApi(responses: Array<'empty' | 'states' | 'error'>) {
  const calls: string[] = [];
  server.use(
    http.get('/api/states-from-country', async ({ request }) => {
      calls.push(request.url);
      const r = responses[Math.min(calls.length - 1, responses.length - 1)];
      await delay(30);
      if (r === 'error') return HttpResponse.json({ message: 'Down.' }, { status: 503 });
      return HttpResponse.json({ states: r === 'states' ? STATES : [] });
    }),
  );
  return calls;
}

describe('search overlay', () => {
  it('requires a query: submit is disabled until it is valid and an emptied field says so', async () => {
    statesApi(['states']);
    const user = userEvent.setup();
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
    await sleep(CLOSE_AFTER_SUBMIT_MS - 80);
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('closes 1000 ms after the close button (or Escape)', async () => {
    statesApi(['states']);
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderAt(<SearchOverlay onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Close search' }));
    await sleep(CLOSE_AFTER_CLOSE_MS - 200);
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1), { timeout: 1000 });
    const onClose2 = vi.fn();
    renderAt(<SearchOverlay onClose={onClose2} />);
    await user.keyboard('{Escape}');
    await sleep(500);
    expect(onClose2).not.toHaveBeenCalled();
    await waitFor(() => expect(onClose2).toHaveBeenCalledTimes(1), { timeout: 1000 });
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
});
