import { splitLocale } from '../../app/locale';

const PROBE_ORIGIN = 'https://same-site.invalid';

/**
 * The `?redirect=` target if it is a path on this site, else null. Only "/x…" is accepted:
 * "//evil", "/\evil" (browsers read "\" as "/"), schemes and control characters are refused,
 * and so is the sign-in page itself (it would loop).
 */
export function safeRedirect(raw: string | null | undefined): string | null {
  if (!raw || raw[0] !== '/' || raw[1] === '/' || raw[1] === '\\') return null;
  // eslint-disable-next-line no-control-regex -- matching control characters is the point: a redirect holding one is refused.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  // Dot segments are resolved by the parse: "/.//evil.example" becomes "//evil.example", which a
  // browser reads as another host (pushState throws and the sign-in page stalls). The result is
  // what gets followed, so it is the result that must be a plain same-origin path.
  if (url.pathname.startsWith('//')) return null;
  if (/^\/auth\/(login|register)(\/|$)/.test(splitLocale(url.pathname).rest)) return null;
  return url.pathname + url.search + url.hash;
}

/** Reads ?redirect= from a wouter search string ("a=1&redirect=…", no leading "?"). */
export function redirectFromSearch(search: string): string | null {
  return safeRedirect(new URLSearchParams(search).get('redirect'));
}
