import type { TFunction } from 'i18next';
import { LISTING_TYPES } from '../../app/routes';
import type { ListingType, StaffAd } from '../../api/ads';

export const LISTING_TYPE_CODES: ListingType[] = LISTING_TYPES.map((x) => x.code);
export const AGES = [...Array.from({ length: 25 }, (_, i) => String(21 + i)), 'over45'];

export const typeSlug = (code: string) => LISTING_TYPES.find((x) => x.code === code)?.slug ?? code;

/** Labels that need the `market` namespace's t(). */
export const typeLabel = (t: TFunction, code: string) => t(`market:types.${code}`, { defaultValue: code });
export const ageLabel = (t: TFunction, age: string) => (age === 'over45' ? t('market:ageOver45') : age);
export const statusLabel = (t: TFunction, status: string) => t(`market:status.${status}`, { defaultValue: status });

/** A rate's duration in words: '30 minutes', '1 hour', '1 h 30 min'. */
export function durationLabel(t: TFunction, minutes: number): string {
  if (minutes < 60) return t('market:duration.minutes', { count: minutes });
  if (minutes % 60 === 0) return t('market:duration.hours', { count: minutes / 60 });
  return t('market:duration.hoursMinutes', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** A weekday's name ('mon' → 'Monday'). */
export const dayLabel = (t: TFunction, day: string) => t(`market:days.${day}`, { defaultValue: day });

/**
 * Formatters made once per language and options: toLocaleDateString makes (and leaves to the
 * garbage collector) a new ICU formatter on every call, the costliest step of rendering a page of
 * cards on the server.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(lng: string, kind: 'date' | 'dateUtc' | 'dateTime'): Intl.DateTimeFormat {
  const key = `${lng}|${kind}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'dateTime'
        ? { dateStyle: 'medium', timeStyle: 'short' }
        : { year: 'numeric', month: 'short', day: 'numeric', ...(kind === 'dateUtc' ? { timeZone: 'UTC' } : {}) };
    formatters.set(key, (f = new Intl.DateTimeFormat(lng, options)));
  }
  return f;
}

/**
 * The UTC dates of the public pages (an ad's "Updated"), written as ICU writes them in our three
 * languages ("Nov 26, 2026", "26 nov 2026", "26 de nov. de 2026") but without it: the first
 * Intl.DateTimeFormat a page makes sets ICU up, ~25 ms of the ad page's hydration (~100 ms at
 * Lighthouse's 4x CPU), its longest task. The server and the browser also write the same words
 * whatever ICU each of them carries.
 */
const SHORT_MONTHS: Record<string, { months: readonly string[]; write(day: number, month: string, year: number): string }> = {
  en: { months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'], write: (d, m, y) => `${m} ${d}, ${y}` },
  es: { months: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'], write: (d, m, y) => `${d} ${m} ${y}` },
  pt: { months: ['jan.', 'fev.', 'mar.', 'abr.', 'mai.', 'jun.', 'jul.', 'ago.', 'set.', 'out.', 'nov.', 'dez.'], write: (d, m, y) => `${d} de ${m} de ${y}` },
};

/** A date from the server shown in the page's language; empty when absent. */
export function dateLabel(iso: string | null | undefined, lng: string, utc = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const own = utc ? SHORT_MONTHS[lng] : undefined;
  if (own && d.getUTCFullYear() > 0) return own.write(d.getUTCDate(), own.months[d.getUTCMonth()], d.getUTCFullYear());
  return formatter(lng, utc ? 'dateUtc' : 'date').format(d);
}

/** A moment from the server (date and time) in the page's language; empty when absent. */
export function dateTimeLabel(iso: string | null | undefined, lng: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : formatter(lng, 'dateTime').format(d);
}

/** True when the signed-in user (`me`) owns the ad: staff never decide on their own ads (the server refuses with 409). */
export function isOwnAd(ad: Pick<StaffAd, 'owner'>, me: string | undefined): boolean {
  return me !== undefined && ad.owner.id === me;
}

/** Staff lists: who posted the ad (nickname, e-mail and account status). */
export function ownerLine(t: TFunction, ad: Pick<StaffAd, 'owner'>): string {
  const { nickname, email, status } = ad.owner;
  return ` · ${t('admin:ownerInfo', { nickname, email, status: t(`admin:userStatus.${status}`, { defaultValue: status }) })}`;
}
