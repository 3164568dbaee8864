import type { OwnerAd } from '../../api/ads';

/**
 * The one state an owner's ad is in, as "my ads" shows it: its status, and for an approved ad
 * whether the public sees it and, when not, why (expired, set offline, the account not approved
 * yet). An edit waiting for review (or rejected) is shown beside it (the ad's `revision`).
 */
export type AdState = 'unpaid' | 'in_review' | 'rejected' | 'live' | 'expired' | 'offline' | 'hidden_account' | 'disabled';

/** What the owner may do to an ad in a state (the server's rules: ads.service.ts, ads.manage.service.ts). */
export type AdAction = 'pay' | 'edit' | 'online' | 'bump' | 'move' | 'renew' | 'delete';

export function adStateOf(ad: Pick<OwnerAd, 'status' | 'online' | 'expiresAt'>, accountApproved: boolean, now = Date.now()): AdState {
  switch (ad.status) {
    case 'unpaid':
    case 'in_review':
    case 'rejected':
    case 'disabled':
    case 'expired':
      return ad.status;
    case 'approved':
      // The expiry job may not have run yet: an approved ad past its time is expired already.
      if (ad.expiresAt && Date.parse(ad.expiresAt) <= now) return 'expired';
      if (!ad.online) return 'offline';
      if (!accountApproved) return 'hidden_account';
      return 'live';
  }
}

const ACTIONS: Record<AdState, AdAction[]> = {
  unpaid: ['pay', 'edit', 'delete'],
  in_review: ['edit', 'delete'],
  rejected: ['edit', 'delete'],
  live: ['online', 'bump', 'move', 'renew', 'edit', 'delete'],
  // A bump moves an ad up a list it is not on: offered once the ad shows again.
  offline: ['online', 'move', 'renew', 'edit', 'delete'],
  hidden_account: ['online', 'move', 'renew', 'edit', 'delete'],
  expired: ['renew', 'edit', 'delete'],
  disabled: ['delete'],
};

export const actionsFor = (state: AdState): readonly AdAction[] => ACTIONS[state];
