import { formatUsd } from '../../contract/amount';

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
export { formatUsd };

/**
 * An amount as typed, with a decimal point: spaces and a leading "$" dropped, and a decimal comma
 * (what Spanish and Portuguese keyboards give: "20,50") read as the point. A comma before three
 * digits is an English thousands separator ("1,000"), and a mix ("1.000,00") could be either way:
 * both are left as typed, for the caller's rule to read or refuse. Shared by every money field.
 */
export function decimalPointText(typed: string): string {
  const t = typed.trim().replace(/^\$\s*/, '');
  return /^\d+,\d{1,2}$/.test(t) ? t.replace(',', '.') : t;
}

/**
 * Parses what a person types as dollars into integer cents, exactly: '12' → 1200, '12.3' → 1230,
 * '12.34' → 1234, '12,34' → 1234, '$1,000.5' → 100050, '.5' → 50. Returns null for anything else
 * (negative numbers, more than two decimals, letters, empty, '1.000' and '1.000,00'), so the
 * caller shows a message instead of silently rounding someone's money.
 */
export function parseDollars(input: string): number | null {
  const s = decimalPointText(input).replace(/,(?=\d{3}(\D|$))/g, '');
  const m = /^(\d*)(?:\.(\d{0,2}))?$/.exec(s);
  if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return null;
  const whole = m[1] === '' ? 0 : Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(2, '0') || '0');
  const cents = whole * 100 + frac;
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * The dollar sign as the page's language writes it, and on which side: '$' before in English,
 * 'US$' before in Portuguese, 'US$' after in Spanish ('12,00 US$'); for a money field's label.
 */
export function usdSign(lng: string): { sign: string; after: boolean } {
  const zero = formatUsd(0, lng);
  const sign = zero.replace(/[\d.,\s]/g, '');
  return { sign, after: !zero.startsWith(sign) };
}

/**
 * Cents to the plain text an input shows for editing, with the page's decimal mark and no grouping
 * (what parseDollars reads back): 2000 → '20.00' in English, '20,00' in Spanish and Portuguese.
 */
export function centsToInput(cents: number, lng: string): string {
  const text = formatCents(cents);
  const mark = new Intl.NumberFormat(lng).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  return mark === ',' ? text.replace('.', ',') : text;
}
