import type { AdFormValues } from '../components/market/adForm';

// The post-ad form as typed so far, kept in this tab (sessionStorage) for the signed-in user: a
// reload, a sign-out in another tab, a suspension lifted, a session that ended (a 401 sends the
// tab to sign in, and back) must not throw away a description being written. Photos are files the
// browser cannot keep: they are chosen again. Gone when the ad is posted, on logout, with the tab.
// (No code of the form is imported: logout clears the draft, and the session store stays small.)

const KEY = 'xg.post-ad-draft';

type Draft = Omit<AdFormValues, 'photos'>;

const isText = (x: unknown): x is string => typeof x === 'string';

/** The draft `userId` left in this tab over the `empty` form, or null (none, another user's, or unreadable). */
export function readAdDraft(userId: string, empty: AdFormValues): Draft | null {
  let raw: unknown;
  try {
    raw = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { user, values } = raw as { user?: unknown; values?: Partial<Record<keyof Draft, unknown>> };
  if (user !== userId || !values || typeof values !== 'object') return null;
  const text = (k: 'listingType' | 'title' | 'description' | 'age' | 'stateId' | 'cityId' | 'phone') => (isText(values[k]) ? values[k] : empty[k]);
  const rates = Array.isArray(values.rates)
    ? values.rates
        .filter((r): r is { minutes: string; price: string } => !!r && isText(r.minutes) && isText(r.price))
        .map(({ minutes, price }) => ({ minutes, price }))
    : [];
  const availability = { ...empty.availability };
  const hours = values.availability as Record<string, { on?: unknown; from?: unknown; to?: unknown }> | undefined;
  for (const day of Object.keys(availability) as (keyof typeof availability)[]) {
    const h = hours?.[day];
    if (h && typeof h.on === 'boolean' && isText(h.from) && isText(h.to)) availability[day] = { on: h.on, from: h.from, to: h.to };
  }
  return {
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
}

/** True when the form holds nothing typed over the `empty` form (photos aside): nothing worth keeping. */
function isEmpty(v: AdFormValues, empty: AdFormValues): boolean {
  const { photos: _photos, ...typed } = v;
  const { photos: _none, ...blank } = empty;
  return JSON.stringify(typed) === JSON.stringify(blank);
}

/** Keeps the form's values (not its photos) for `userId`; a form as `empty` leaves no draft. */
export function saveAdDraft(userId: string, v: AdFormValues, empty: AdFormValues): void {
  try {
    if (isEmpty(v, empty)) return sessionStorage.removeItem(KEY);
    const { photos: _photos, ...values } = v;
    sessionStorage.setItem(KEY, JSON.stringify({ user: userId, values }));
  } catch {
    // storage full or refused: the form still works, only without the safety net
  }
}

export function clearAdDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // storage refused: nothing was kept
  }
}
