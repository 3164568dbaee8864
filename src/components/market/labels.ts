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

/** A date from the server shown in the page's language; empty when absent. */
export function dateLabel(iso: string | null | undefined, lng: string, utc = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(lng, { year: 'numeric', month: 'short', day: 'numeric', ...(utc ? { timeZone: 'UTC' } : {}) });
}

/** A moment from the server (date and time) in the page's language; empty when absent. */
export function dateTimeLabel(iso: string | null | undefined, lng: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(lng, { dateStyle: 'medium', timeStyle: 'short' });
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
