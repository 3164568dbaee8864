// Reports about an ad, filed from its public page (the reports module files them).
import type { AppDeps } from '../../core/deps.ts';
import { NotFound } from '../../core/errors.ts';
import type { Actor } from '../../core/policy.ts';
import type { Report } from '../../../contract/api/reports.ts';
import { checkReport, countReport, fileReport } from '../reports/reports.service.ts';
import { findScreenedTerm } from '../ads/ads.screening.ts';
import { can } from './listings.policy.ts';
import type { ListingsService } from './listings.service.ts';

/**
 * Files a report about an ad (any existing ad: a hidden one may still need staff attention). One
 * the sender marks urgent (the person may be a minor or trafficked), or whose text the ad screening
 * would refuse ("she is 15", "they keep her passport"), is filed as a trafficking tip about the ad:
 * listed first and flagged in the staff e-mail, as such tips are.
 */
export async function reportAd(
  deps: AppDeps,
  listings: ListingsService,
  reporter: Actor,
  adId: string,
  body: { message: string; contact?: string | null; urgent?: boolean },
  ip: string,
): Promise<Report> {
  const input = { kind: 'ad' as 'ad' | 'trafficking', adId, message: body.message, contact: body.contact ?? null };
  checkReport(input); // bad input does not use up the sender's allowance (the two kinds' rules are the same)
  const row = listings.reads.adById(adId);
  if (!row || !can(reporter, 'report', listings.listed(row))) throw new NotFound('listings.ad_not_found');
  countReport(deps, ip);
  // Screened once the text passed its checks and the sender's allowance counted it: a screening
  // reads the whole text, work no refused or over-the-limit request should get for free.
  if (body.urgent === true || findScreenedTerm(body.message) !== null) input.kind = 'trafficking';
  return fileReport(deps, input, ip); // a repeat of an open report is answered with it, not filed again
}
