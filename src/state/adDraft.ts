import type { AdFormValues } from '../components/market/adForm';

// An ad form as typed so far, kept in this tab (sessionStorage) for the signed-in user: a reload, a
// sign-out in another tab, a suspension lifted, a session that ended (a 401 sends the tab to sign
// in, and back) must not throw away a description being written. One draft per form: the post-ad
// form's, and each ad's edit form's (several may be open in one tab's history). Photos are files
// the browser cannot keep: they are chosen again. A draft goes when its form is saved or left
// through its cancel, all of them on logout, and with the tab.
// (No code of the form is imported: logout clears the drafts, and the session store stays small.)

const NEW_AD_KEY = 'xg.post-ad-draft';
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

/** Forgets every draft in this tab: the post-ad form's and every edit's (logout). */
export function clearAdDraft(): void {
  try {
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const key = sessionStorage.key(i);
      if (key === NEW_AD_KEY || key?.startsWith(EDIT_PREFIX)) sessionStorage.removeItem(key);
    }
  } catch {
    // storage refused: nothing was kept
  }
}
