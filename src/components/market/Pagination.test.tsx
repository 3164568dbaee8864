import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../test/render';
import { Pagination } from './Pagination';

/** A list paged in place (`onPage`), as the admin lists driven by a store are. */
function InPlace({ total }: { total: number }) {
  const [page, setPage] = useState(1);
  return (
    <>
      <p>Showing page {page}</p>
      <Pagination page={page} pageSize={20} total={total} onPage={setPage} />
    </>
  );
}

describe('pagination in place', () => {
  // As the master lists' Pager: the link pressed keeps keyboard focus, even onto the last page
  // (where Next is refused with aria-disabled instead of removed) or as it becomes the current page.
  it('keeps focus on Next page when it reaches the last page, and refuses further presses', async () => {
    const user = userEvent.setup();
    renderAt(<InPlace total={60} />);
    const next = screen.getByRole('link', { name: 'Next page' });
    expect(screen.getByRole('link', { name: 'Previous page' }).getAttribute('aria-disabled')).toBe('true');
    next.focus();
    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    expect(screen.getByText('Showing page 3')).toBeTruthy();
    expect(document.activeElement).toBe(next);
    expect(next.getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Enter}');
    expect(screen.getByText('Showing page 3')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Page 3' }).getAttribute('aria-current')).toBe('page');
  });

  it('keeps focus on a page number pressed, the last one outside the window included', async () => {
    const user = userEvent.setup();
    renderAt(<InPlace total={200} />);
    const last = screen.getByRole('link', { name: 'Page 10' });
    last.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('Showing page 10')).toBeTruthy();
    expect(document.activeElement).toBe(last);
    expect(last.getAttribute('aria-current')).toBe('page');
    const first = screen.getByRole('link', { name: 'Page 1' });
    first.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('Showing page 1')).toBeTruthy();
    expect(document.activeElement).toBe(first);
  });

  it('with URLs, shows the current page as text and no arrow past either end', () => {
    renderAt(<Pagination page={1} pageSize={20} total={60} hrefFor={(p) => `/list?page=${p}`} />);
    expect(screen.queryByRole('link', { name: 'Previous page' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Page 1' })).toBeNull();
    expect(screen.getByText('1').getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Next page' }).getAttribute('href')).toBe('/list?page=2');
  });
});
