import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderAt } from '../../test/render';
import Footer from './Footer';

// The blog, its feed and the social profiles are the operator's (build-time settings, README:
// configuration): a link whose setting is unset is not shown rather than pointing nowhere.

const hrefs = () => [...screen.getByRole('contentinfo').querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '');

describe('Footer', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('shows no blog, feed or social link when none is set, and no placeholder address', () => {
    renderAt(<Footer />, '/');
    expect(hrefs().filter((h) => h.includes('example.com'))).toEqual([]);
    expect(screen.queryByRole('link', { name: 'Blog' })).toBeNull();
    expect(screen.queryByRole('link', { name: /XG Marketplace on|blog feed/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Follow us' })).toBeNull(); // no heading over nothing
    expect(screen.getByRole('contentinfo').querySelectorAll('img[src^="/badges/"]')).toHaveLength(2); // the rating badges stay
    expect(screen.getByRole('link', { name: 'About us' }).getAttribute('href')).toBe('/about-us');
  });

  it('shows each link whose address is set, and only those', () => {
    vi.stubEnv('VITE_BLOG_URL', 'https://blog.xg.test');
    vi.stubEnv('VITE_RSS_URL', 'https://blog.xg.test/feed.xml');
    vi.stubEnv('VITE_SOCIAL_X_URL', 'https://x.com/xg_test');
    vi.stubEnv('VITE_SOCIAL_REDDIT_URL', '  '); // blank counts as unset
    renderAt(<Footer />, '/');
    const explore = screen.getByRole('heading', { name: 'Explore' }).parentElement!;
    expect(within(explore).getByRole('link', { name: 'Blog' }).getAttribute('href')).toBe('https://blog.xg.test');
    expect(screen.getByRole('heading', { name: 'Follow us' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'XG Marketplace blog feed' }).getAttribute('href')).toBe('https://blog.xg.test/feed.xml');
    expect(screen.getByRole('link', { name: 'XG Marketplace on X' }).getAttribute('href')).toBe('https://x.com/xg_test');
    expect(screen.queryByRole('link', { name: 'XG Marketplace on Reddit' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'XG Marketplace on Telegram' })).toBeNull();
    expect(hrefs().filter((h) => h.includes('example.com'))).toEqual([]);
  });

  it('shows the blog link alone when only the blog is set', () => {
    vi.stubEnv('VITE_BLOG_URL', 'https://blog.xg.test');
    renderAt(<Footer />, '/');
    expect(screen.getByRole('link', { name: 'Blog' }).getAttribute('href')).toBe('https://blog.xg.test');
    expect(screen.queryByRole('link', { name: 'XG Marketplace blog feed' })).toBeNull();
  });
});
