import { describe, expect, it } from 'vitest';
import { redirectFromSearch, safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('accepts same-site paths with their query and hash', () => {
    expect(safeRedirect('/admin/dashboard/my-wallet')).toBe('/admin/dashboard/my-wallet');
    expect(safeRedirect('/es/admin/dashboard?tab=1#x')).toBe('/es/admin/dashboard?tab=1#x');
  });

  it('refuses anything that could leave the site', () => {
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      '/\\/evil.example',
      'https://evil.example/x',
      'javascript:alert(1)',
      'evil.example',
      '/\tx',
      '\\\\evil',
      '/ok\\..\\x',
      '',
      null,
      undefined,
    ]) {
      expect(safeRedirect(bad)).toBeNull();
    }
  });

  it('refuses paths whose dot segments resolve to another host (/.//evil.example stalled the sign-in page)', () => {
    for (const bad of ['/.//evil.example', '/./..//evil.example', '/x/..//evil.example', '/%2e//evil.example']) {
      expect(safeRedirect(bad), bad).toBeNull();
    }
    // A dot segment that stays on the site is fine, and what is returned is the resolved path.
    expect(safeRedirect('/./admin/dashboard')).toBe('/admin/dashboard');
  });

  it('refuses the sign-in and register pages (no loops)', () => {
    expect(safeRedirect('/auth/login?redirect=/x')).toBeNull();
    expect(safeRedirect('/pt/auth/register')).toBeNull();
    expect(safeRedirect('/auth/confirm-email?token=a')).toBe('/auth/confirm-email?token=a');
  });

  it('reads the redirect from a search string', () => {
    expect(redirectFromSearch(`redirect=${encodeURIComponent('/admin/dashboard/my-ads')}`)).toBe('/admin/dashboard/my-ads');
    expect(redirectFromSearch(`redirect=${encodeURIComponent('//evil.example')}`)).toBeNull();
    expect(redirectFromSearch('')).toBeNull();
  });
});
