import { Type } from 'typebox';

/** Deepest page any list serves: a bound on OFFSET, and what keeps Infinity and 1e400 out. */
export const MAX_PAGE = 10_000;
export const MAX_PAGE_SIZE = 100;
/** A list's page size when the query names none (the public listings and search). */
export const DEFAULT_PAGE_SIZE = 20;

/**
 * The paging fields of every list's query string, spread into its schema: whole numbers, page
 * 1–10,000, pageSize 1–100; anything else is a 400 naming the field, before a handler runs.
 */
export const Paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
};
