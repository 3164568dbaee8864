import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderAt } from '../../test/render';
import Drawer, { DRAWER_CLOSE_DELAY_MS } from './Drawer';

describe('mobile drawer', () => {
  afterEach(() => vi.useRealTimers());

  it('is a labelled dialog that closes 100 ms after a link is clicked, while the page changes at once', async () => {
    const onClose = vi.fn();
    const r = renderAt(<Drawer onClose={onClose} />, '/');
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    await screen.findByRole('link', { name: 'Sign in' }); // the session-dependent links (guest)
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('link', { name: 'Post ad' }));
    expect(r.currentPath()).toBe('/admin/dashboard/create-ads');
    act(() => {
      vi.advanceTimersByTime(DRAWER_CLOSE_DELAY_MS - 1);
    });
    expect(onClose).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onClose).toHaveBeenCalledTimes(1);
    act(() => {
      vi.advanceTimersByTime(500);
    });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes at once with its close button or Escape', () => {
    const onClose = vi.fn();
    renderAt(<Drawer onClose={onClose} />, '/');
    fireEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('offers the three languages for the current page', () => {
    window.history.replaceState(null, '', '/faq');
    renderAt(<Drawer onClose={() => {}} />, '/faq');
    expect(screen.getByRole('link', { name: 'Español' }).getAttribute('href')).toBe('/es/faq');
    expect(screen.getByRole('link', { name: 'Português' }).getAttribute('href')).toBe('/pt/faq');
    expect(screen.getByRole('link', { name: 'English' }).getAttribute('aria-current')).toBe('true');
  });
});
