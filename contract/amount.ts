/**
 * Bitcoin top-up amounts (PRODUCT §6): US dollars from 10.00 to 1,000.00 with at most two
 * decimals. Parsed to integer cents from the decimal text itself, never through a float, so
 * "19.99" is 1999 exactly. Shared by the server (the rule) and the wallet screen (the same rule
 * before submit).
 */
export const TOP_UP_MIN_CENTS = 1000;
export const TOP_UP_MAX_CENTS = 100_000;
export const TOP_UP_PRESETS = [20, 50, 100] as const;

/** Integer cents of a decimal string ("10", "10.5", "10.00", "-3.20"); null when it is not one. Any number of decimals is read exactly; `maxDecimals` refuses more. */
export function decimalToCents(text: string, maxDecimals = 2): number | null {
  const m = /^(-?)(\d{1,15})(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = m[3] ?? '';
  if (frac.length > maxDecimals) {
    // "10.000" is 10.00: extra zeros are fine, extra digits are not cents.
    if (!/^0*$/.test(frac.slice(2))) return null;
  }
  const cents = Number(m[2]) * 100 + Number((frac + '00').slice(0, 2));
  if (!Number.isSafeInteger(cents)) return null;
  return m[1] === '-' ? -cents : cents;
}

/** Cents as BTCPay's decimal string: 2500 → "25.00". */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The top-up amount in cents, or null when it is not 10.00–1,000.00 with at most two decimals. A JSON number is read through its shortest decimal text. */
export function topUpCents(amount: number | string): number | null {
  if (typeof amount === 'number' && !Number.isFinite(amount)) return null;
  const text = typeof amount === 'number' ? String(amount) : amount;
  if (/e/i.test(text)) return null;
  const cents = decimalToCents(text, 2);
  if (cents === null || cents < TOP_UP_MIN_CENTS || cents > TOP_UP_MAX_CENTS) return null;
  return cents;
}

const usdFormats = new Map<string, Intl.NumberFormat>();

/**
 * US dollars as the page's language writes them (USD only in this product): en '$1,234.56',
 * pt 'US$ 1.234,56', es '1234,56 US$'. Brazilian and Spanish readers take '1,234' for one point
 * two, so the English form would misstate a balance. `lng` is the page's language as the
 * rendering component knows it (useTranslation's i18n.language), or the e-mail's reader's: the server renders each
 * language with its own i18n instance, so a global language would not do there, and the same
 * language gives the same string on server and client (no hydration mismatch). One formatter per
 * language, made once: building an Intl.NumberFormat is costly, using one is not.
 */
export function formatUsd(cents: number, lng: string): string {
  let format = usdFormats.get(lng);
  if (!format) {
    format = new Intl.NumberFormat(lng, { style: 'currency', currency: 'USD' });
    usdFormats.set(lng, format);
  }
  // The exact decimal string, not cents / 100: Intl reads it as written, no binary float on the way.
  return format.format(centsToDecimal(Number.isFinite(cents) ? Math.round(cents) : 0) as `${number}`);
}
