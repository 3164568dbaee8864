import { sessionCheck } from './resource';

/** The last page of a list of `total` rows, `pageSize` to a page (page 1 for an empty list). */
export const lastPageOf = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/**
 * Reads page `q.page` of a list; when that page is past the list's end (its last rows left, here
 * or in another tab), the list's last page instead (and `q` is set to it), not an empty page that
 * says the list is empty. A page the user chose while the read was under way is left as it is.
 */
export async function readWithinPages<R extends { total: number } | null>(
  q: { page: number },
  pageSize: number,
  read: (page: number) => Promise<R>,
): Promise<R> {
  const unchanged = sessionCheck();
  const page = q.page;
  const out = await read(page);
  if (!out || page <= lastPageOf(out.total, pageSize)) return out;
  if (q.page === page && unchanged()) q.page = lastPageOf(out.total, pageSize);
  return read(q.page);
}

/**
 * Whether a page from which a row was just taken out must be read again: rows of later pages
 * follow (the next one moves up), or it is now empty and not the first (the page before shows).
 */
export const pageNeedsReading = (total: number, page: number, pageSize: number, shown: number) =>
  total > (page - 1) * pageSize + shown || (shown === 0 && page > 1);
