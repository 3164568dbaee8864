import {
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  PHOTOS_TOTAL_MAX_MB,
  TITLE_MAX,
  TITLE_MIN,
  charCount,
  cleanLine,
  cleanText,
  normalizeUsPhone,
} from '../../../contract/rules';
import {
  RATE_LINES_MAX,
  RATE_PRICE_MAX_CENTS,
  RATE_PRICE_MIN_CENTS,
  WEEKDAYS,
  parseAvailability,
  parseRates,
  type Availability,
  type RateLine,
  type Weekday,
} from '../../../contract/ad-extras';
import type { AdContent, PostAdFields } from '../../../contract/api/ads';
import { MAX_INPUT_PIXELS, megapixelsOf, readImageStart } from '../../../contract/image-header';
import { centsToInput, parseDollars } from '../../lib/money';
import { AGES, LISTING_TYPE_CODES } from './labels';

// The post-ad form's rules, the same ones the server enforces (PRODUCT §10), checked before
// submit. Each error is a `market` namespace key plus its values.

export const PHOTOS_MIN = 1;
export const PHOTOS_MAX = 10;
export const PHOTO_MAX_MB = 10;
export const PHOTO_MAX_BYTES = PHOTO_MAX_MB * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** One line of the rates as typed: a duration in minutes (a select's value) and a price in dollars. */
export interface RateRow {
  minutes: string;
  price: string;
}

/** One weekday of the hours as the form holds it (times 'HH:MM'). */
export interface HoursRow {
  on: boolean;
  from: string;
  to: string;
  /**
   * The day's hours as the ad holds them, when a time field cannot show them (an end at 24:00):
   * sent back as they are while `from` and `to` are still what the fields were given for them.
   */
  saved?: { from: string; to: string };
}
export type HoursRows = Record<Weekday, HoursRow>;

export interface AdFormValues {
  listingType: string;
  title: string;
  description: string;
  age: string;
  stateId: string;
  cityId: string;
  phone: string;
  /** New files to upload. */
  photos: File[];
  rates: RateRow[];
  incall: boolean;
  outcall: boolean;
  availability: HoursRows;
}

/** The hours a day gets when it is ticked. */
export const DEFAULT_HOURS = { from: '10:00', to: '22:00' } as const;

/** Durations offered for a rate (minutes); an ad's own other duration is offered too. */
export const RATE_DURATIONS = [15, 30, 45, 60, 90, 120, 180, 240, 360, 480, 720, 1440];

export const emptyHours = (): HoursRows => Object.fromEntries(WEEKDAYS.map((d) => [d, { on: false, ...DEFAULT_HOURS }])) as HoursRows;

export const EMPTY_AD_FORM: AdFormValues = {
  listingType: '',
  title: '',
  description: '',
  age: '',
  stateId: '',
  cityId: '',
  phone: '',
  photos: [],
  rates: [],
  incall: false,
  outcall: false,
  availability: emptyHours(),
};

/**
 * The form's values for an ad's current content (the edit screen); no new photos yet. Prices are
 * written as the page's language types them ('150,00' in Spanish and Portuguese: parseDollars reads both).
 */
export function formValuesOf(
  c: Pick<AdContent, 'listingType' | 'title' | 'description' | 'age' | 'state' | 'city' | 'phone'> & { details?: AdContent['details'] },
  lng = 'en',
): AdFormValues {
  const d = c.details;
  const availability = emptyHours();
  for (const day of WEEKDAYS) {
    const h = d?.availability[day];
    if (h) availability[day] = { on: true, ...shownHours(h), ...(h.to === '24:00' ? { saved: { from: h.from, to: h.to } } : {}) };
  }
  return {
    listingType: c.listingType,
    title: c.title,
    description: c.description,
    age: c.age,
    stateId: c.state.id,
    cityId: c.city.id,
    phone: c.phone,
    photos: [],
    rates: (d?.rates ?? []).map((r) => ({ minutes: String(r.minutes), price: centsToInput(r.priceCents, lng) })),
    incall: d?.incall ?? false,
    outcall: d?.outcall ?? false,
    availability,
  };
}

export type FieldError = { key: string; values?: Record<string, string | number> };
export type AdFormErrors = Partial<Record<keyof AdFormValues, FieldError>>;

/** The rates as the server takes them, or null when a line breaks a rule (the server's own check, contract/ad-extras.ts). */
export function ratesOf(rows: readonly RateRow[]): RateLine[] | null {
  const lines = rows.map((r) => ({ minutes: Number(r.minutes), priceCents: parseDollars(r.price) ?? NaN }));
  return parseRates(lines);
}

/**
 * A day's hours as the time fields show them. A time field cannot show 24:00 (a browser empties a
 * field given it): an end at midnight shows as 00:00 (an end before the start runs past midnight),
 * or as 23:59 for a whole day.
 */
function shownHours(h: { from: string; to: string }): { from: string; to: string } {
  return { from: h.from, to: h.to === '24:00' ? (h.from === '00:00' ? '23:59' : '00:00') : h.to };
}

/** The hours as the server takes them (ticked days only), or null when a day breaks a rule. */
export function availabilityOf(rows: HoursRows): Availability | null {
  const out: Record<string, { from: string; to: string }> = {};
  for (const day of WEEKDAYS) {
    const { on, from, to, saved } = rows[day];
    if (!on) continue;
    // A day left as it was shown keeps the ad's own hours (an end at 24:00 is not rewritten to 23:59).
    const shown = saved && shownHours(saved);
    out[day] = saved && shown!.from === from && shown!.to === to ? saved : { from, to };
  }
  return parseAvailability(out);
}

/**
 * Why a rate line is refused (empty duration, price out of range, a duration listed twice), or null.
 * The price limits go as dollars to the message's `currency(USD)` format: i18next writes them with
 * the same Intl formatter as formatUsd, in the language of the `t` that words the error at render
 * (so a language switch re-words them). Whole dollars: no binary fraction on the way.
 */
export function rateRowProblem(rows: readonly RateRow[], i: number): FieldError | null {
  const r = rows[i];
  const cents = parseDollars(r.price);
  if (!r.minutes || cents === null || cents < RATE_PRICE_MIN_CENTS || cents > RATE_PRICE_MAX_CENTS) {
    return { key: 'rules.ratePrice', values: { min: RATE_PRICE_MIN_CENTS / 100, max: RATE_PRICE_MAX_CENTS / 100 } };
  }
  if (rows.findIndex((x) => x.minutes === r.minutes) !== i) return { key: 'rules.rateTwice' };
  return null;
}

/** The form's text fields as POST /api/post-ad and PUT /api/ads/:id take them (rates, hours and flags included). */
export function adFieldsOf(v: AdFormValues): PostAdFields {
  return {
    listingType: v.listingType,
    title: v.title.trim(),
    description: v.description.trim(),
    age: v.age,
    stateId: v.stateId,
    cityId: v.cityId,
    phone: normalizeUsPhone(v.phone) ?? v.phone,
    rates: JSON.stringify(ratesOf(v.rates) ?? []),
    incall: String(v.incall),
    outcall: String(v.outcall),
    availability: JSON.stringify(availabilityOf(v.availability) ?? {}),
  };
}

export const RULES = {
  title: { key: 'rules.title', values: { min: TITLE_MIN, max: TITLE_MAX } },
  description: { key: 'rules.description', values: { min: DESCRIPTION_MIN, max: DESCRIPTION_MAX } },
  photos: { key: 'rules.photos', values: { min: PHOTOS_MIN, max: PHOTOS_MAX, mb: PHOTO_MAX_MB } },
  rates: { key: 'rules.rates', values: { max: RATE_LINES_MAX } },
  hours: { key: 'rules.hours' },
} as const;

/** Why one photo cannot be uploaded (wrong type or too large), or null. */
export function photoProblem(f: File): FieldError | null {
  if (!PHOTO_TYPES.includes(f.type)) return { key: 'rules.photoType', values: { name: f.name } };
  if (f.size > PHOTO_MAX_BYTES) return { key: 'rules.photoSize', values: { name: f.name, mb: PHOTO_MAX_MB } };
  return null;
}

/** How much of a photo is read for its header: a JPEG's frame header may follow EXIF and XMP of any size, read in two steps. */
export const PHOTO_HEADER_READS = [64 * 1024, 256 * 1024];

/** Formats a photo's bytes may turn out to be whatever its name says (an iPhone's HEIC renamed .jpg, a GIF, a PDF): their first bytes. */
const OTHER_FORMATS: [offset: number, signature: string][] = [
  [0, 'GIF8'],
  [0, '%PDF'],
  [4, 'ftyp'], // HEIC, HEIF, AVIF, MP4, MOV
  [0, 'II*\0'], // TIFF
  [0, 'MM\0*'],
  [0, 'PK\u0003\u0004'], // ZIP (an .docx, a folder)
  [0, 'BM'],
];
const holds = (b: Uint8Array, at: number, signature: string) => [...signature].every((c, i) => b[at + i] === c.charCodeAt(0));
const isOtherFormat = (b: Uint8Array) => OTHER_FORMATS.some(([at, signature]) => holds(b, at, signature));
/** Bytes that start as a JPEG, PNG or WebP does: a header unreadable after that is a damaged file. */
const isAcceptedStart = (b: Uint8Array) => holds(b, 0, '\xff\xd8') || holds(b, 0, '\x89PNG') || (holds(b, 0, 'RIFF') && holds(b, 8, 'WEBP'));

/**
 * Why the server would refuse a photo from its header (server/core/images.ts, the same reader):
 * over 40 megapixels (phones' 48 and 50 MP modes), a JPEG, PNG or WebP whose header is damaged, or
 * bytes of another format whatever the name says. Null when fine, and when the bytes are of no
 * format named here or the frame header lies past the bytes read: the server decides those.
 */
export async function photoHeaderProblem(f: File): Promise<FieldError | null> {
  for (const n of PHOTO_HEADER_READS) {
    const bytes = new Uint8Array(await f.slice(0, n).arrayBuffer());
    const info = readImageStart(bytes);
    if (info === 'more' && bytes.length < f.size) continue;
    if (info === null && !isAcceptedStart(bytes) && !isOtherFormat(bytes)) return null;
    if (!info || info === 'more') return { key: 'rules.photoType', values: { name: f.name } };
    if (info.width * info.height <= MAX_INPUT_PIXELS) return null;
    const { width, height } = info;
    return { key: 'rules.photoPixels', values: { name: f.name, width, height, megapixels: megapixelsOf(width, height), max: MAX_INPUT_PIXELS / 1e6 } };
  }
  return null;
}

/**
 * Where a text holds a U+FFFD ("�": a character lost to a wrong encoding, "I�m") or half of a
 * UTF-16 pair (which becomes one when sent): the server refuses the field (core/multipart.ts
 * textField). The words either side, the lost one shown as "�", so the provider finds it; null when none.
 */
export function lostCharacterNear(v: string): string | null {
  const m = /\uFFFD|\p{Cs}/u.exec(v);
  if (!m) return null;
  const words = (s: string) =>
    s
      .replace(/\p{Cs}/gu, '\uFFFD')
      .replace(/\s+/g, ' ')
      .split(' ');
  const before = Array.from(words(v.slice(0, m.index)).slice(-2).join(' '))
    .slice(-20)
    .join('');
  const after = Array.from(
    words(v.slice(m.index + 1))
      .slice(0, 2)
      .join(' '),
  )
    .slice(0, 20)
    .join('');
  return `${before}\uFFFD${after}`.trim();
}

/** The form's errors; `kept` counts the current photos the edit screen keeps (they count toward 1–10). */
export function validateAdForm(v: AdFormValues, kept = 0): AdFormErrors {
  const e: AdFormErrors = {};
  if (!LISTING_TYPE_CODES.includes(v.listingType as never)) e.listingType = { key: 'rules.listingType' };
  // Counted as the server stores and counts them (runs of spaces as one, control characters out, an emoji one character).
  const title = charCount(cleanLine(v.title));
  const lostInTitle = lostCharacterNear(v.title);
  if (lostInTitle) e.title = { key: 'rules.lostCharacter', values: { near: lostInTitle } };
  else if (title < TITLE_MIN || title > TITLE_MAX) e.title = RULES.title;
  const desc = charCount(cleanText(v.description));
  const lostInDescription = lostCharacterNear(v.description);
  if (lostInDescription) e.description = { key: 'rules.lostCharacter', values: { near: lostInDescription } };
  else if (desc < DESCRIPTION_MIN || desc > DESCRIPTION_MAX) e.description = RULES.description;
  if (!AGES.includes(v.age)) e.age = { key: 'rules.age' };
  if (!v.stateId) e.stateId = { key: 'rules.state' };
  if (!v.cityId) e.cityId = { key: 'rules.city' };
  if (!normalizeUsPhone(v.phone)) e.phone = { key: 'rules.phone' };
  const count = kept + v.photos.length;
  if (count < PHOTOS_MIN || count > PHOTOS_MAX) e.photos = RULES.photos;
  else {
    const bad = v.photos.map(photoProblem).find(Boolean);
    if (bad) e.photos = bad;
    else if (v.photos.reduce((n, f) => n + f.size, 0) > PHOTOS_TOTAL_MAX_MB * 1024 * 1024)
      e.photos = { key: 'rules.photosTotal', values: { mb: PHOTOS_TOTAL_MAX_MB } };
  }
  if (v.rates.length > RATE_LINES_MAX) e.rates = RULES.rates;
  else if (!ratesOf(v.rates)) e.rates = v.rates.map((_, i) => rateRowProblem(v.rates, i)).find(Boolean) ?? RULES.rates;
  if (!availabilityOf(v.availability)) e.availability = RULES.hours;
  return e;
}
