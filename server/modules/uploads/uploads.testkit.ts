import type { TestContext, TestUser } from '../../test/harness.ts';

// What the upload route's tests compare: a file's answer to one viewer, as status and cache-control.

export const PUBLIC = '200 public, max-age=300';
export const HIDDEN = '404 no-store';
export const PRIVATE = '200 private, no-store';

/** GET a file as `who` (null: a guest). */
export const fetchAs = (ctx: TestContext, url: string, who: TestUser | null) =>
  ctx.app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} });

/** What each viewer (null: a guest) gets for each URL, in order: status and cache-control. */
export async function seenBy<K extends string>(ctx: TestContext, viewers: Record<K, TestUser | null>, urls: readonly string[]): Promise<Record<K, string[]>> {
  const names = Object.keys(viewers) as K[];
  const out = Object.fromEntries(names.map((k) => [k, [] as string[]])) as Record<K, string[]>;
  for (const url of urls) {
    for (const who of names) {
      const res = await fetchAs(ctx, url, viewers[who]);
      out[who].push(`${res.statusCode} ${res.headers['cache-control']}`);
    }
  }
  return out;
}
