import { isStaff, unknownAction, type Actor } from '../../core/policy.ts';

/**
 * Who may act on a report (PRODUCT §1, §7). Anyone files one (guests too: the public forms and
 * the report button of an ad, listings.policy.ts); staff read them and open or close them.
 */
export const ACTIONS = ['setStatus'] as const;
export type ReportsAction = (typeof ACTIONS)[number];

/** A report: the rules need nothing of it but that it exists. */
export interface ReportObject {
  id: string;
}

export function can(actor: Actor, action: ReportsAction, report?: ReportObject): boolean {
  if (!report) return false;
  switch (action) {
    case 'setStatus':
      return isStaff(actor);
    default:
      return unknownAction(action);
  }
}
