import { isOwner, isStaff, unknownAction, type Actor } from '../../core/policy.ts';

/**
 * Who may act on a report (PRODUCT §1, §7). Anyone files one (guests too: the public forms and
 * the report button of an ad, listings.policy.ts); staff read them and open or close them, but not
 * one about their own ad: they neither close it nor read who sent it or what it says (another
 * admin must), as they may not review, disable or export their own ads.
 */
export const ACTIONS = ['setStatus'] as const;
export type ReportsAction = (typeof ACTIONS)[number];

/** A report, and whose ad it is about (null: no ad, or the ad no longer exists). */
export interface ReportObject {
  id: string;
  adOwnerId: string | null;
}

export function can(actor: Actor, action: ReportsAction, report?: ReportObject): boolean {
  if (!report) return false;
  switch (action) {
    case 'setStatus':
      return isStaff(actor) && !isOwner(actor, report.adOwnerId);
    default:
      return unknownAction(action);
  }
}
