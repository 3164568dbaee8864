// Locale prefix routing: English has none, Spanish /es/…, Portuguese /pt/….
export const LOCALES = ['en', 'es', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Splits a browser path into its locale and the path without the prefix. */
export function splitLocale(pathname: string): { locale: Locale; rest: string } {
  const m = /^\/(es|pt)(\/.*)?$/.exec(pathname);
  if (m) return { locale: m[1] as Locale, rest: m[2] || '/' };
  return { locale: 'en', rest: pathname || '/' };
}

export function localeBase(locale: Locale): string {
  return locale === 'en' ? '' : `/${locale}`;
}

/** The same page in another language: keeps the rest of the path, the query and the hash. */
export function switchLocalePath(fullPath: string, to: Locale): string {
  const u = new URL(fullPath, 'http://x');
  const { rest } = splitLocale(u.pathname);
  const path = to === 'en' ? rest : rest === '/' ? `/${to}` : `/${to}${rest}`;
  return path + u.search + u.hash;
}
