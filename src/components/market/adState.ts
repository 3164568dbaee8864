import type { OwnerAd } from '../../api/ads';

/**
 * The one state an owner's ad is in, as "my ads" shows it: its status, and for an approved ad
 * whether the public sees it and, when not, why (expired, its city or state closed by staff, set
 * offline, the account not approved yet). An edit waiting for review (or rejected) is shown beside
 * it (the ad's `revision`).
 */
export type AdState = 'unpaid' | 'in_review' | 'rejected' | 'live' | 'expired' | 'place_closed' | 'offline' | 'hidden_account' | 'disabled';

/** What the owner may do to an ad in a state (the server's rules: ads.service.ts, ads.manage.service.ts). */
export type AdAction = 'pay' | 'edit' | 'online' | 'bump' | 'move' | 'renew' | 'delete';

export function adStateOf(
  ad: Pick<OwnerAd, 'status' | 'online' | 'expiresAt' | 'placeClosed' | 'termHeld'>,
  accountApproved: boolean,
  now = Date.now(),
): AdState {
  switch (ad.status) {
    case 'unpaid':
    case 'in_review':
    case 'rejected':
    case 'disabled':
    case 'expired':
      return ad.status;
    case 'approved':
      // The expiry job may not have run yet: an approved ad past its time is expired already. Not
      // one whose term is held: its days have not started (the server never expires it).
      if (!ad.termHeld && ad.expiresAt && Date.parse(ad.expiresAt) <= now) return 'expired';
      // Closed by staff, the place hides it whatever the owner does here: moving it is the way out.
      if (ad.placeClosed) return 'place_closed';
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
  // Neither a term nor a bump is sold where the ad shows nowhere (the server refuses them).
  place_closed: ['move', 'edit', 'delete'],
  // Its place may have closed since: the server lets an expired ad move, to be renewed there.
  expired: ['renew', 'move', 'edit', 'delete'],
  disabled: ['delete'],
};

export const actionsFor = (state: AdState): readonly AdAction[] => ACTIONS[state];
