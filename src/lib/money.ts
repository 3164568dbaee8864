// Money is integer cents everywhere; these helpers only cross the boundary to text. They work on
// integers and strings so no binary-float rounding (0.1 + 0.2) can ever creep into an amount.

/** 1234 → '12.34', -5 → '-0.05', 100000 → '1,000.00' (with grouping when asked). */
export function formatCents(cents: number, opts: { grouping?: boolean } = {}): string {
  if (!Number.isFinite(cents)) return '0.00';
  const n = Math.round(cents); // amounts from the server are integers; this only guards bad input
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  let whole = String(Math.floor(abs / 100));
  const frac = String(abs % 100).padStart(2, '0');
  if (opts.grouping) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${frac}`;
}

// US dollars as a language writes them: shared with the server's e-mails (contract/amount.ts).
export { formatUsd } from '../../contract/amount';

/**
 * Parses what a person types as dollars into integer cents, exactly: '12' → 1200, '12.3' → 1230,
 * '12.34' → 1234, '$1,000.5' → 100050, '.5' → 50. Returns null for anything else (negative
 * numbers, more than two decimals, letters, empty), so the caller shows a message instead of
 * silently rounding someone's money.
 */
export function parseDollars(input: string): number | null {
  const s = input
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  const m = /^(\d*)(?:\.(\d{0,2}))?$/.exec(s);
  if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return null;
  const whole = m[1] === '' ? 0 : Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(2, '0') || '0');
  const cents = whole * 100 + frac;
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Cents to the plain text an input shows for editing: 2000 → '20.00'. */
export function centsToInput(cents: number): string {
  return formatCents(cents);
}
