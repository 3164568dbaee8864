import { DESCRIPTION_MAX, DESCRIPTION_MIN, TITLE_MAX, TITLE_MIN, normalizeUsPhone } from '../../../contract/rules';
import { AGES, LISTING_TYPE_CODES } from './labels';

// The post-ad form's rules, the same ones the server enforces (PRODUCT §10), checked before
// submit. Each error is a `market` namespace key plus its values.

export const PHOTOS_MIN = 1;
export const PHOTOS_MAX = 10;
export const PHOTO_MAX_MB = 10;
export const PHOTO_MAX_BYTES = PHOTO_MAX_MB * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

export interface AdFormValues {
  listingType: string;
  title: string;
  description: string;
  age: string;
  stateId: string;
  cityId: string;
  phone: string;
  photos: File[];
}

export type FieldError = { key: string; values?: Record<string, string | number> };
export type AdFormErrors = Partial<Record<keyof AdFormValues, FieldError>>;

export const RULES = {
  title: { key: 'rules.title', values: { min: TITLE_MIN, max: TITLE_MAX } },
  description: { key: 'rules.description', values: { min: DESCRIPTION_MIN, max: DESCRIPTION_MAX } },
  photos: { key: 'rules.photos', values: { min: PHOTOS_MIN, max: PHOTOS_MAX, mb: PHOTO_MAX_MB } },
} as const;

/** Why one photo cannot be uploaded (wrong type or too large), or null. */
export function photoProblem(f: File): FieldError | null {
  if (!PHOTO_TYPES.includes(f.type)) return { key: 'rules.photoType', values: { name: f.name } };
  if (f.size > PHOTO_MAX_BYTES) return { key: 'rules.photoSize', values: { name: f.name, mb: PHOTO_MAX_MB } };
  return null;
}

export function validateAdForm(v: AdFormValues): AdFormErrors {
  const e: AdFormErrors = {};
  if (!LISTING_TYPE_CODES.includes(v.listingType as never)) e.listingType = { key: 'rules.listingType' };
  const title = v.title.trim().length;
  if (title < TITLE_MIN || title > TITLE_MAX) e.title = RULES.title;
  const desc = v.description.trim().length;
  if (desc < DESCRIPTION_MIN || desc > DESCRIPTION_MAX) e.description = RULES.description;
  if (!AGES.includes(v.age)) e.age = { key: 'rules.age' };
  if (!v.stateId) e.stateId = { key: 'rules.state' };
  if (!v.cityId) e.cityId = { key: 'rules.city' };
  if (!normalizeUsPhone(v.phone)) e.phone = { key: 'rules.phone' };
  if (v.photos.length < PHOTOS_MIN || v.photos.length > PHOTOS_MAX) e.photos = RULES.photos;
  else {
    const bad = v.photos.map(photoProblem).find(Boolean);
    if (bad) e.photos = bad;
  }
  return e;
}
