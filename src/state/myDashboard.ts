import { createResource } from './resource';
import { adsApi, type AdActivity, type AdCounts } from '../api/ads';
import { paymentsApi, type Transaction } from '../api/payments';
import { walletsStore } from './wallets';

/** How many money movements the dashboard's recent activity shows (the server gives at most 5 decisions on ads). */
export const RECENT_MONEY = 5;

/** One line of the dashboard's recent activity: a decision on one of the user's ads, or money moving in a wallet. */
export type ActivityItem = ({ source: 'ad' } & AdActivity) | ({ source: 'money'; at: string } & Transaction);

export interface MyDashboard {
  /** The user's ads by status, counted by the server whatever their number (an approved ad past its expiry counts as expired). */
  counts: AdCounts;
  online: number;
  /** The latest decisions on the user's ads and the latest money movements, newest first. */
  activity: ActivityItem[];
}

/**
 * The "my dashboard" data area: the counts of the user's ads and the recent activity. The socket's
 * ad events read it again (socket.ts), as they do the lists.
 */
export const myDashboardStore = createResource(async (): Promise<MyDashboard> => {
  const [overview, money] = await Promise.all([adsApi.overview(), paymentsApi.transactions({ page: 1, pageSize: RECENT_MONEY }), walletsStore.load()]);
  const activity: ActivityItem[] = [
    ...overview.recent.map((a) => ({ source: 'ad' as const, ...a })),
    ...money.transactions.map((t) => ({ source: 'money' as const, ...t, at: t.createdAt })),
  ];
  // ISO times, all UTC: newest first as text.
  activity.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return { counts: overview.counts, online: overview.online, activity };
});
