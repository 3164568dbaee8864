import { proxy } from 'valtio';
import { createResource, onReset } from './resource';
import { moderationApi, type DuplicateFlag, type HoldTarget, type SearchStatus } from '../api/moderation';

export const SEARCH_PAGE_SIZE = 20;

/** The search screen's data area and its query (filled from the address's ?query=&status=&page=). */
export const searchQuery = proxy<{ query: string; status: '' | SearchStatus; page: number }>({ query: '', status: '', page: 1 });
export const adSearchStore = createResource(() =>
  moderationApi.search({ query: searchQuery.query || undefined, status: searchQuery.status || undefined, page: searchQuery.page, pageSize: SEARCH_PAGE_SIZE }),
);

/** One user, whole (the user screen). */
export const userDetailStore = createResource((id: string) => moderationApi.user(id));

/** Legal holds in force (listed on the search screen). */
export const activeHoldsStore = createResource(() => moderationApi.holds({ active: true, pageSize: 50 }));

/** The screening log screen. */
export const screeningQuery = proxy({ page: 1 });
export const screeningStore = createResource(() => moderationApi.screeningLog({ page: screeningQuery.page, pageSize: SEARCH_PAGE_SIZE }));

/** The page views screen (7, 30 or 90 days). */
export const pageViewsQuery = proxy<{ days: 7 | 30 | 90 }>({ days: 30 });
export const pageViewsStore = createResource(() => moderationApi.pageViews(pageViewsQuery.days));

/** Duplicate flags of the ads a list shows, by ad id. */
export const duplicatesStore = createResource(async (adIds: readonly string[]) => {
  const byAd: Record<string, DuplicateFlag[]> = {};
  if (!adIds.length) return byAd;
  for (const f of (await moderationApi.duplicateFlags(adIds)).flags) (byAd[f.adId] ??= []).push(f);
  return byAd;
});

onReset(() => {
  Object.assign(searchQuery, { query: '', status: '', page: 1 });
  screeningQuery.page = 1;
  pageViewsQuery.days = 30;
});

export function loadSearch(change: Partial<typeof searchQuery> = {}) {
  Object.assign(searchQuery, change);
  return adSearchStore.load();
}

/** Places a hold, then reloads what shows it. */
export async function placeHold(targetType: HoldTarget, targetId: string, reason: string) {
  const { hold } = await moderationApi.placeHold({ targetType, targetId, reason });
  return hold;
}

/** Releases the hold whose Release button was pressed, and only it (others may cover the same subject). */
export async function releaseHold(hold: { id: string; targetType: HoldTarget; targetId: string }, note: string) {
  return (await moderationApi.releaseHold({ targetType: hold.targetType, targetId: hold.targetId, holdIds: [hold.id], note })).released;
}
