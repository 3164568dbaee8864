import type { AdFormValues } from '../components/market/adForm';
import { ownerOf } from './typedText';

// An ad form as typed so far, kept in this tab (sessionStorage) for the signed-in user: a reload, a
// sign-out in another tab, a suspension lifted, a session that ended (a 401 sends the tab to sign
// in, and back) must not throw away a description being written. One draft per form: the post-ad
// form's, and each ad's edit form's (several may be open in one tab's history). Photos are files
// the browser cannot keep: they are chosen again. A draft goes when its form is saved or left
// through its cancel, all of them on sign-out in this tab, another user's when someone signs in,
// and with the tab. A session that ends by itself or elsewhere leaves them: its user gets them back.
// The post-ad form's request key (state/ads.ts) is kept beside its draft: a post whose answer was
// lost, posted again after a reload, is the same post.
// (No code of the form is imported: logout clears the drafts, and the session store stays small.)

const NEW_AD_KEY = 'xg.post-ad-draft';
const POST_KEY = 'xg.post-ad-key';
const EDIT_PREFIX = 'xg.ad-draft:';

/**
 * Which form a draft is of: the post-ad form (no `adId`), or the edit form of the ad `adId`.
 * `basis` says what an edit started from (the ad as it was): kept with the draft, so that a form
 * opened on an ad changed since can say so.
 */
export interface AdDraftOf {
  adId?: string;
  basis?: string;
}

type Draft = Omit<AdFormValues, 'photos'>;

/** A draft read back: the values, and the basis it was taken on ('' for the post-ad form). */
export interface KeptDraft {
  values: Draft;
  basis: string;
}

const keyOf = (of: AdDraftOf) => (of.adId ? EDIT_PREFIX + of.adId : NEW_AD_KEY);

const isText = (x: unknown): x is string => typeof x === 'string';

/** True when the form holds nothing typed over `base` (photos aside): nothing worth keeping. */
function isUnchanged(v: Draft | AdFormValues, base: AdFormValues): boolean {
  const { photos: _photos, ...typed } = { photos: [], ...v };
  const { photos: _none, ...blank } = base;
  return JSON.stringify(typed) === JSON.stringify(blank);
}

/**
 * The draft `userId` left in this tab of the form `of`, over its `base` (the empty form, or the ad's
 * values), or null: none, another user's, unreadable, or no different from `base`.
 */
export function readAdDraft(userId: string, base: AdFormValues, of: AdDraftOf = {}): KeptDraft | null {
  let raw: unknown;
  try {
    raw = JSON.parse(sessionStorage.getItem(keyOf(of)) ?? 'null');
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { user, values, basis } = raw as { user?: unknown; values?: Partial<Record<keyof Draft, unknown>>; basis?: unknown };
  if (user !== userId || !values || typeof values !== 'object') return null;
  const text = (k: 'listingType' | 'title' | 'description' | 'age' | 'stateId' | 'cityId' | 'phone') => (isText(values[k]) ? values[k] : base[k]);
  const rates = Array.isArray(values.rates)
    ? values.rates
        .filter((r): r is { minutes: string; price: string } => !!r && isText(r.minutes) && isText(r.price))
        .map(({ minutes, price }) => ({ minutes, price }))
    : [];
  const availability = { ...base.availability };
  const hours = values.availability as Record<string, { on?: unknown; from?: unknown; to?: unknown }> | undefined;
  for (const day of Object.keys(availability) as (keyof typeof availability)[]) {
    const h = hours?.[day];
    // The ad's own hours (`saved`, e.g. an end at 24:00 no time field shows) stay with the row: an
    // untouched row sends them back as they were.
    const saved = base.availability[day].saved;
    if (h && typeof h.on === 'boolean' && isText(h.from) && isText(h.to)) availability[day] = { on: h.on, from: h.from, to: h.to, ...(saved ? { saved } : {}) };
  }
  const draft: Draft = {
    listingType: text('listingType'),
    title: text('title'),
    description: text('description'),
    age: text('age'),
    stateId: text('stateId'),
    cityId: text('cityId'),
    phone: text('phone'),
    rates,
    incall: values.incall === true,
    outcall: values.outcall === true,
    availability,
  };
  // An edit that is what the ad now holds (staff approved those very changes) gives nothing back.
  if (isUnchanged(draft, base)) return null;
  return { values: draft, basis: isText(basis) ? basis : '' };
}

/** Keeps the form's values (not its photos) for `userId`; a form as its `base` leaves no draft. */
export function saveAdDraft(userId: string, v: AdFormValues, base: AdFormValues, of: AdDraftOf = {}): void {
  try {
    if (isUnchanged(v, base)) return sessionStorage.removeItem(keyOf(of));
    const { photos: _photos, ...values } = v;
    sessionStorage.setItem(keyOf(of), JSON.stringify({ user: userId, values, ...(of.adId ? { basis: of.basis ?? '' } : {}) }));
  } catch {
    // storage full or refused: the form still works, only without the safety net
  }
}

/** Forgets the draft of one form (saved, or left through its cancel). */
export function discardAdDraft(of: AdDraftOf): void {
  try {
    sessionStorage.removeItem(keyOf(of));
  } catch {
    // storage refused: nothing was kept
  }
}

/**
 * Forgets the drafts in this tab (the post-ad form's, with its request key, and every edit's) of
 * every user but `keepFor` (someone signed in), or all of them (sign-out).
 */
export function clearAdDraft(keepFor?: string): void {
  try {
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const key = sessionStorage.key(i);
      if (key !== NEW_AD_KEY && key !== POST_KEY && !key?.startsWith(EDIT_PREFIX)) continue;
      if (keepFor === undefined || ownerOf(sessionStorage.getItem(key)) !== keepFor) sessionStorage.removeItem(key);
    }
  } catch {
    // storage refused: nothing was kept
  }
}

/** A post's request key and the content it was sent with (state/ads.ts). */
export interface PostKey {
  content: string;
  key: string;
}

/** The request key of `userId`'s last post from this tab that did not succeed, or null. */
export function readPostKey(userId: string): PostKey | null {
  try {
    const raw = JSON.parse(sessionStorage.getItem(POST_KEY) ?? 'null') as { user?: unknown; content?: unknown; key?: unknown } | null;
    if (!raw || raw.user !== userId || !isText(raw.content) || !isText(raw.key)) return null;
    return { content: raw.content, key: raw.key };
  } catch {
    return null;
  }
}

/** Keeps a post's request key for `userId` until the post succeeds. */
export function keepPostKey(userId: string, kept: PostKey): void {
  try {
    sessionStorage.setItem(POST_KEY, JSON.stringify({ user: userId, ...kept }));
  } catch {
    // storage full or refused: the key lives in memory only (state/ads.ts)
  }
}

/** Drops the request key `key` (its post succeeded); a newer one stays. */
export function dropPostKey(key: string): void {
  try {
    if (JSON.parse(sessionStorage.getItem(POST_KEY) ?? 'null')?.key === key) sessionStorage.removeItem(POST_KEY);
  } catch {
    // storage refused or unreadable: nothing to drop
  }
}
