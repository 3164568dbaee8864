// A page URL read as the site reads it: the page's path and its own query, and its one spelling.
import { PAGE_PARAMS, matchSeoRoute, pageQuery, splitSeoLocale } from '../../../contract/seo.ts';

/**
 * The page a URL asks for: its path and its own query (contract/seo.ts pageQuery), the cache key
 * and what is rendered; the others (utm_…) neither change it nor split its cache entry. `moved` is
 * the page's one URL when the URL spells it otherwise (a public page's path with a trailing slash,
 * /es/ or /faq/; a query the page does not read or reads otherwise: ?page=1, ?page=abc, /faq?page=7),
 * the other parameters kept: answered with a redirect there when the page exists. `named`: a
 * route of the site names the path (one the router reads but the site does not name is no page).
 */
export function pageUrl(url: string): { path: string; search: string; moved: string | null; named: boolean } {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  const all = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  // Only a path a route names loses its slash: any other may not redirect (//evil.example/ to //evil.example).
  const bare = raw.length > 1 && raw.endsWith('/') ? raw.replace(/\/+$/, '') || '/' : raw;
  const path = bare !== raw && !matchSeoRoute(splitSeoLocale(bare).rest).notFound ? bare : raw;
  const route = matchSeoRoute(splitSeoLocale(safeDecode(path)).rest);
  const search = pageQuery(route.key, all.toString());
  const own = new URLSearchParams();
  const others = new URLSearchParams(search);
  for (const [k, v] of all) {
    if ((PAGE_PARAMS as readonly string[]).includes(k)) own.append(k, v);
    else others.append(k, v);
  }
  const moved = path !== raw || own.toString() !== search ? path + (others.size ? `?${others}` : '') : null;
  return { path, search, moved, named: !route.notFound };
}

export function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}
