import type { Executor } from '../../core/db.ts';
import type { AdContent } from '../../../contract/api/ads.ts';
import { detailsOf, photosOf } from './ads.dto.ts';
import type { AdVersionSource, ListingType } from './ads.tables.ts';

/**
 * The ledger key of an ad's payment or refund. A rejected ad that goes back to the cart is paid
 * again: each attempt has its own key (attempt 0 keeps the keys of ads paid before attempts).
 */
export const paymentKey = (kind: 'ad-payment' | 'ad-refund', adId: string, attempt: number) =>
  attempt === 0 ? `${kind}:${adId}` : `${kind}:${adId}:${attempt}`;

/** The editable fields of an ads row or a revision row. */
export interface ContentRow {
  listing_type: ListingType;
  title: string;
  description: string;
  age: string;
  state_id: string;
  city_id: string;
  phone: string;
  photos_json: string;
  rates_json: string;
  incall: number;
  outcall: number;
  availability_json: string;
}

const CONTENT_COLUMNS = [
  'listing_type',
  'title',
  'description',
  'age',
  'state_id',
  'city_id',
  'phone',
  'photos_json',
  'rates_json',
  'incall',
  'outcall',
  'availability_json',
] as const;

/** Keeps the ad's stored content as one more version (every version is kept: the evidence export reads them). */
export async function recordVersion(db: Executor, adId: string, source: AdVersionSource, at: string): Promise<void> {
  const row = await db
    .selectFrom('ads')
    .select(['owner_id', ...CONTENT_COLUMNS])
    .where('id', '=', adId)
    .executeTakeFirst();
  if (!row) return;
  const { owner_id, ...fields } = row;
  await db
    .insertInto('ad_versions')
    .values({ ad_id: adId, owner_id, source, fields_json: JSON.stringify(fields), created_at: at })
    .execute();
}

/** A row's content as the API shows it (with its place's names). */
export async function contentOf(db: Executor, r: ContentRow): Promise<AdContent> {
  const place = await db
    .selectFrom('cities')
    .innerJoin('states', 'states.id', 'cities.state_id')
    .select(['states.name as state_name', 'states.slug as state_slug', 'cities.name as city_name', 'cities.slug as city_slug'])
    .where('cities.id', '=', r.city_id)
    .executeTakeFirst();
  return {
    listingType: r.listing_type,
    title: r.title,
    description: r.description,
    age: r.age,
    state: { id: r.state_id, name: place?.state_name ?? r.state_id, slug: place?.state_slug ?? r.state_id },
    city: { id: r.city_id, name: place?.city_name ?? r.city_id, slug: place?.city_slug ?? r.city_id },
    phone: r.phone,
    photos: photosOf(r.photos_json),
    details: detailsOf(r),
  };
}
