import { Invalid } from '../../core/errors.ts';
import { DESCRIPTION_MAX, DESCRIPTION_MIN, TITLE_MAX, TITLE_MIN, charCount, cleanLine, cleanText, normalizeUsPhone } from '../../../contract/rules.ts';
import type { PostAdFields } from '../../../contract/api/ads.ts';
import type { ListingType } from './ads.tables.ts';
import { parseAvailability, parseJsonField, parseRates, type Availability, type RateLine } from '../../../contract/ad-extras.ts';

export const LISTING_TYPES: readonly ListingType[] = ['female_esc', 'female_rub', 'shemale_esc'];
export const LISTING_TYPE_SLUGS: Record<ListingType, string> = {
  female_esc: 'female-escorts',
  female_rub: 'female-bodyrubs',
  shemale_esc: 'shemale-escorts',
};
/** Ages the form offers: 21 to 45, and 'over45'. Nothing below 21 can be stored. */
export const AGES: readonly string[] = [...Array.from({ length: 25 }, (_, i) => String(21 + i)), 'over45'];
export const MAX_PHOTOS = 10;

/** A listing type from its code ('female_esc') or its URL slug ('female-escorts'); null when neither. */
export function parseListingType(v: string | undefined | null): ListingType | null {
  if (!v) return null;
  const s = v.trim().toLowerCase();
  if ((LISTING_TYPES as readonly string[]).includes(s)) return s as ListingType;
  const bySlug = (Object.entries(LISTING_TYPE_SLUGS) as [ListingType, string][]).find(([, slug]) => slug === s);
  return bySlug ? bySlug[0] : null;
}

/** The post-ad form's text fields as sent (any may be missing). */
export type AdFieldsInput = Partial<PostAdFields>;

export interface AdFields {
  listingType: ListingType;
  title: string;
  description: string;
  age: string;
  stateId: string;
  cityId: string;
  phone: string;
}

/** Checks and normalizes the text fields of an ad (PRODUCT §10); throws 400 naming the first bad field. */
export function checkAdFields(f: AdFieldsInput): AdFields {
  const listingType = parseListingType(f.listingType);
  if (!listingType) throw new Invalid('listingType', 'ad.listing_type_invalid');
  // Counted in characters (an emoji is one), as the form's counter shows them; at most 4 bytes each.
  const title = cleanLine(f.title ?? '');
  const titleChars = charCount(title);
  if (titleChars < TITLE_MIN || titleChars > TITLE_MAX) throw new Invalid('title', 'ad.title_length', { min: TITLE_MIN, max: TITLE_MAX });
  const description = cleanText(f.description ?? '');
  const descriptionChars = charCount(description);
  if (descriptionChars < DESCRIPTION_MIN || descriptionChars > DESCRIPTION_MAX) {
    throw new Invalid('description', 'ad.description_length', { min: DESCRIPTION_MIN, max: DESCRIPTION_MAX });
  }
  const age = (f.age ?? '')
    .trim()
    .toLowerCase()
    .replace(/^over\s*45$/, 'over45');
  if (!AGES.includes(age)) throw new Invalid('age', 'ad.age_invalid');
  const stateId = (f.stateId ?? '').trim();
  if (!stateId || stateId.length > 40) throw new Invalid('stateId', 'ad.state_required');
  const cityId = (f.cityId ?? '').trim();
  if (!cityId || cityId.length > 40) throw new Invalid('cityId', 'ad.city_required');
  const phone = normalizeUsPhone(f.phone ?? '');
  if (!phone) throw new Invalid('phone', 'ad.phone_invalid');
  return { listingType, title, description, age, stateId, cityId, phone };
}

/** Rates, incall / outcall and hours, as stored (ads.rates_json, incall, outcall, availability_json). */
export interface AdDetailsStored {
  ratesJson: string;
  incall: number;
  outcall: number;
  availabilityJson: string;
}

const flag = (v: string | undefined, field: string): number => {
  const s = (v ?? '').trim().toLowerCase();
  if (s === '' || s === 'false' || s === '0') return 0;
  if (s === 'true' || s === '1') return 1;
  throw new Invalid(field, 'ad.flag_invalid');
};

/** Checks the optional richer fields of the ad form (contract/ad-extras.ts); missing ones are empty. */
export function checkAdDetails(f: AdFieldsInput): AdDetailsStored {
  const rawRates = parseJsonField(f.rates);
  const rates: RateLine[] | null = rawRates === undefined ? [] : parseRates(rawRates);
  if (!rates) throw new Invalid('rates', 'ad.rates_invalid', { max: 5 });
  const rawHours = parseJsonField(f.availability);
  const availability: Availability | null = rawHours === undefined ? {} : parseAvailability(rawHours);
  if (!availability) throw new Invalid('availability', 'ad.availability_invalid');
  return {
    ratesJson: JSON.stringify(rates),
    incall: flag(f.incall, 'incall'),
    outcall: flag(f.outcall, 'outcall'),
    availabilityJson: JSON.stringify(availability),
  };
}
