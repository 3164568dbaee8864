import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../test/render';
import { Pager } from './Pager';

/** A list of 3 pages of 10 whose reading the test ends (`loading` is the Pager's `disabled`). */
const reads = { pages: [] as number[], finish: () => {} };

function List() {
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(false);
  const onPage = (p: number) => {
    reads.pages.push(p);
    setLoading(true);
    void new Promise<void>((resolve) => (reads.finish = resolve)).then(() => {
      setPage(p);
      setLoading(false);
    });
  };
  return <Pager label="Messages pages" page={page} pageSize={10} total={30} disabled={loading} onPage={onPage} />;
}

describe('Pager', () => {
  // jsdom keeps focus on a disabled button (Chromium drops it to <body>): "kept" is focused and not `disabled`.
  it('keeps focus on Next while the page is read and once it reaches the last page, and ignores presses meanwhile', async () => {
    const user = userEvent.setup();
    renderAt(<List />);
    const next = screen.getByRole<HTMLButtonElement>('button', { name: 'Next' });
    const previous = screen.getByRole<HTMLButtonElement>('button', { name: 'Previous' });
    expect(previous.getAttribute('aria-disabled')).toBe('true'); // first page
    expect(previous.disabled).toBe(false);

    next.focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(next);
    expect(next.disabled).toBe(false);
    expect(next.getAttribute('aria-busy')).toBe('true');
    await user.keyboard('{Enter}'); // ignored while page 2 is read
    expect(reads.pages).toEqual([2]);
    reads.finish();
    expect(await screen.findByText('Page 2 of 3 (30 in all)')).toBeTruthy();

    await user.keyboard('{Enter}');
    reads.finish();
    expect(await screen.findByText('Page 3 of 3 (30 in all)')).toBeTruthy();
    // The last page: Next says so but keeps focus, and does nothing.
    expect(document.activeElement).toBe(next);
    expect(next.disabled).toBe(false);
    expect(next.getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Enter}');
    expect(reads.pages).toEqual([2, 3]);
  });
});
