import type { Failure } from './run-route.ts';

// The failure report: a route's failures grouped by what went wrong, each group with the inputs
// that caused it and one request in full, so the owner can replay it.

/** Groups a route's failures: one line per (kind, status, error or tables), with the inputs that caused it. */
export function formatFailures(failures: Failure[]): string {
  const groups = new Map<string, Failure[]>();
  for (const f of failures) {
    const key = [f.kind, f.status ?? '', f.error?.replace(/\d+/g, 'N') ?? '', f.tables?.replace(/[+-]?\d+ row/g, 'N row') ?? ''].join('|');
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()]
    .map((g) => {
      const f = g[0];
      const how = [...new Set(g.map((x) => `${x.family}${x.detail ? `:${x.detail}` : ''} (${x.actor})`))];
      return [
        `● ${f.route} — ${f.kind}${f.status ? ` ${f.status}` : ''} ×${g.length}`,
        f.error ? `    error:    ${f.error}` : '',
        f.tables ? `    changed:  ${f.tables}` : '',
        `    inputs:   ${how.slice(0, 12).join(', ')}${how.length > 12 ? `, … ${how.length - 12} more` : ''}`,
        `    example:  ${f.request}`,
        f.response ? `    answer:   ${f.response}` : '',
      ]
        .filter(Boolean)
        .join('\n');
    })
    .join('\n');
}
