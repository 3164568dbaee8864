import type { TFunction } from 'i18next';
import { LISTING_TYPES } from '../../app/routes';
import type { ListingType, StaffAd } from '../../api/ads';

export const LISTING_TYPE_CODES: ListingType[] = LISTING_TYPES.map((x) => x.code);
export const AGES = [...Array.from({ length: 25 }, (_, i) => String(21 + i)), 'over45'];

export const typeSlug = (code: string) => LISTING_TYPES.find((x) => x.code === code)?.slug ?? code;
export const typeFromSlug = (slugOrCode: string): ListingType | null => LISTING_TYPES.find((x) => x.slug === slugOrCode || x.code === slugOrCode)?.code ?? null;

/** Labels that need the `market` namespace's t(). */
export const typeLabel = (t: TFunction, code: string) => t(`market:types.${code}`, { defaultValue: code });
export const ageLabel = (t: TFunction, age: string) => (age === 'over45' ? t('market:ageOver45') : age);
export const statusLabel = (t: TFunction, status: string) => t(`market:status.${status}`, { defaultValue: status });

/** A date from the server shown in the page's language; empty when absent. */
export function dateLabel(iso: string | null | undefined, lng: string, utc = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(lng, { year: 'numeric', month: 'short', day: 'numeric', ...(utc ? { timeZone: 'UTC' } : {}) });
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
