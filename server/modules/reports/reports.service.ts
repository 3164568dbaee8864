import { createHmac } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import type { Executor } from '../../core/db.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors.ts';
import { isStaff } from '../../core/policy.ts';
import { newId } from '../../core/ids.ts';
import { WindowLimiter, ipKey } from '../../core/ratelimit.ts';
import { writeAudit } from '../../core/audit.ts';
import { paging } from '../../core/http.ts';
import { checkEmail, cleanLine, cleanText } from '../../../contract/rules.ts';
import { can } from './reports.policy.ts';
import * as repo from './reports.repository.ts';
import { lastReportNote, ownerOfAd } from '../moderation/moderation.repository.ts';
import { NOTE_MAX, NOTE_MIN } from '../../../contract/api/moderation.ts';
import { reportAds } from '../moderation/moderation.service.ts';
import { staffAddress, staffEmails } from '../health/health.repository.ts';
import { composeMail, pageLink, REPORT_KIND_WORDS, URGENT_WORD, utcMoment, type MailLocale } from '../../core/mail-templates.ts';
import {
  REPORT_CONTACT_MAX,
  REPORT_MESSAGE_MAX,
  REPORT_MESSAGE_MIN,
  URGENT_REPORT_KINDS,
  type Report,
  type ReportKind,
  type ReportStatus,
  type reportsApi,
} from '../../../contract/api/reports.ts';
import type { ResponseOf } from '../../../contract/api/types.ts';
import { HOUR_MS } from '../../core/clock.ts';

type ReportsApi = typeof reportsApi;

export const toDto = (r: repo.ReportRow): Report => ({
  id: r.id,
  kind: r.kind,
  adId: r.ad_id,
  message: r.message,
  contact: r.contact,
  status: r.status,
  ipHash: r.ip_hash,
  createdAt: r.created_at,
  urgent: isUrgent(r.kind),
  ad: null,
});

/** Trafficking tips and law-enforcement requests: listed first while open, flagged in the staff e-mail. */
export const isUrgent = (kind: ReportKind): boolean => (URGENT_REPORT_KINDS as readonly string[]).includes(kind);

/**
 * A keyed hash of the sender's IP: staff can spot repeat senders, the address itself is not kept.
 * Hashed by ipKey, as every per-IP limit counts a sender: an IPv6 subscriber holds a whole /64 and
 * rotates privacy addresses within it, so hashing the full address showed one sender as a new one
 * on every report. Rows stored before this change keep the hash of the full IPv6 address (the
 * address is not kept, so they cannot be rehashed): a /64's older reports show a different hash
 * from its newer ones, and do not fold with them (fileReport). IPv4 hashes are unchanged (ipKey
 * keeps an IPv4 address as is; an IPv4-mapped one now hashes as its plain IPv4 form).
 */
export function hashIp(secret: string, ip: string): string {
  return createHmac('sha256', secret)
    .update(`report-ip:${ipKey(ip)}`)
    .digest('hex')
    .slice(0, 16);
}

export interface NewReport {
  kind: ReportKind;
  message: string;
  contact?: string | null;
  adId?: string | null;
  ipHash?: string | null;
}

/** Checks and normalizes a report's fields; throws 400 naming the field. */
export function checkReport(input: NewReport): { message: string; contact: string | null } {
  // Counted as stored: control, format and bidi characters out (40 zero-width spaces say nothing).
  const message = cleanText(input.message);
  if (message.length < REPORT_MESSAGE_MIN) throw new Invalid('message', 'reports.message_too_short', { min: REPORT_MESSAGE_MIN });
  if (message.length > REPORT_MESSAGE_MAX) throw new Invalid('message', 'reports.message_too_long', { max: REPORT_MESSAGE_MAX });
  const contact = (input.contact != null && cleanLine(input.contact)) || null;
  if (contact && contact.length > REPORT_CONTACT_MAX) throw new Invalid('contact', 'reports.contact_too_long', { max: REPORT_CONTACT_MAX });
  // Contact and law-enforcement requests need an address to answer; trafficking tips may be anonymous.
  if (input.kind === 'contact' || input.kind === 'law_enforcement') {
    if (!contact || checkEmail(contact)) throw new Invalid('contact', 'reports.contact_email_required');
  }
  return { message, contact };
}

/**
 * Stores one report inside the caller's transaction. Routes file through fileReport (which folds
 * repeats and mails staff after commit), after countReport(deps, ip) so all reports share the
 * 10-per-hour-per-IP limit: POST /api/reports here, POST /api/report-ad/:id in the listings module.
 */
export async function createReport(trx: Executor, input: NewReport, at: Date): Promise<Report> {
  const { message, contact } = checkReport(input);
  const row = await repo.insertReport(trx, {
    id: newId(),
    kind: input.kind,
    ad_id: input.adId ?? null,
    message,
    contact,
    ip_hash: input.ipHash ?? null,
    created_at: at.toISOString(),
  });
  return toDto(row);
}

/**
 * Files a report and e-mails staff about it, unless it repeats one still open: the same kind,
 * ad, sender hash, message and contact. A double-click, a retry after a lost answer or a script
 * resending it then gets the first report back (same id and time, so the same answer) and neither
 * adds to the staff's queue nor mails them again. The look-up and the insert share one transaction,
 * which every transaction of ours opens with BEGIN IMMEDIATE (core/db.ts): two servers on one file
 * take turns, so the second sees the first's row. No unique index instead: databases in use may
 * already hold such repeats, which such an index would refuse to be built over.
 * The caller has checked the input and counted it against the sender's allowance (countReport).
 */
export async function fileReport(deps: Pick<AppDeps, 'config' | 'mailer' | 'log' | 'db' | 'clock'>, input: NewReport, ip: string): Promise<Report> {
  const ipHash = hashIp(deps.config.jwtSecret, ip);
  const { message, contact } = checkReport(input);
  const { report, filed } = await deps.db.transaction().execute(async (trx) => {
    const twin = input.adId ? await repo.findOpenTwin(trx, { kind: input.kind, ad_id: input.adId, ip_hash: ipHash, message, contact }) : undefined;
    if (twin) return { report: toDto(twin), filed: false };
    return { report: await createReport(trx, { ...input, ipHash }, deps.clock.now()), filed: true };
  });
  if (filed) await notifyStaff(deps, report);
  return report;
}

/**
 * E-mails staff about a new report, each in the language they last used: STAFF_EMAIL, or else
 * every approved admin and master (an install without one still hears of a trafficking tip),
 * except the owner of the ad it is about, who may not read it (reports.policy.ts). Best effort:
 * the stored report is what counts.
 */
export async function notifyStaff(deps: Pick<AppDeps, 'config' | 'mailer' | 'log' | 'db'>, report: Report): Promise<void> {
  let to = deps.config.staffEmail ? [await staffAddress(deps.db, deps.config.staffEmail)] : await staffEmails(deps.db);
  if (!deps.config.staffEmail && report.adId) {
    const owner = await deps.db
      .selectFrom('ads')
      .innerJoin('users', 'users.id', 'ads.owner_id')
      .select('users.email')
      .where('ads.id', '=', report.adId)
      .executeTakeFirst();
    to = to.filter((r) => r.email !== owner?.email);
  }
  if (!to.length) {
    deps.log.warn({ reportId: report.id, kind: report.kind }, 'report not e-mailed: no STAFF_EMAIL and no staff account to tell');
    return;
  }
  await Promise.all(to.map(({ email, locale }) => mailOne(deps, report, email, locale)));
}

async function mailOne(deps: Pick<AppDeps, 'config' | 'mailer' | 'log'>, report: Report, to: string, locale: MailLocale): Promise<void> {
  try {
    const mail = composeMail('staffReport', locale, to, {
      urgent: report.urgent ? URGENT_WORD[locale] : '',
      kind: REPORT_KIND_WORDS[locale][report.kind],
      id: report.id,
      when: utcMoment(report.createdAt, locale),
      adUrl: report.adId ? pageLink(deps.config.publicUrl, locale, `/ad/${report.adId}`) : '',
      contact: report.contact ?? '',
      message: report.message,
      link: pageLink(deps.config.publicUrl, locale, '/admin/dashboard/admin/reports'),
    });
    await deps.mailer.send({ ...mail, replyTo: report.contact && !checkEmail(report.contact) ? report.contact : undefined });
  } catch (err) {
    deps.log.error({ err, reportId: report.id }, 'could not e-mail staff about a report');
  }
}

/**
 * Who owns or owned the ad a report names: its owner, live or kept (a legal hold), else, once it is
 * deleted, the owner its last version names. A staff member who deletes their own reported ad stays
 * its owner for the report.
 */
async function ownerOfReportedAd(db: Executor, adId: string): Promise<string | null> {
  return (await ownerOfAd(db, adId)) ?? (await repo.lastOwnerOfAd(db, adId));
}

// One limiter per app (keyed by its deps), shared by every route that files a report.
const limiters = new WeakMap<object, WindowLimiter>();
function reportLimiter(deps: Pick<AppDeps, 'clock' | 'limits'>): WindowLimiter {
  let l = limiters.get(deps);
  if (!l) {
    l = new WindowLimiter(deps.clock, deps.limits.reportsPerHour, HOUR_MS);
    limiters.set(deps, l);
  }
  return l;
}

/** Counts a report against its sender's hourly allowance (per address; an IPv6 one by its /64, as every per-IP limit): 429 past it. */
export function countReport(deps: Pick<AppDeps, 'clock' | 'limits'>, ip: string): void {
  reportLimiter(deps).hit([`ip:${ipKey(ip)}`], 'reports.too_many');
}

export class ReportsService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  /**
   * A public report (trafficking, contact, law enforcement): rate limited per IP, stored, mailed to
   * staff. An ad it names must be one this module can trace to an owner (live, held, or deleted with
   * its versions kept, as for ad reports after the ad is gone): else 404 with the ad report route's
   * code, before the allowance is used, rather than a report about no ad and a mail linking nowhere.
   */
  async submit(input: NewReport, ip: string): Promise<Report> {
    checkReport(input); // bad input does not use up the sender's allowance
    if (input.adId && !(await ownerOfReportedAd(this.deps.db, input.adId))) throw new NotFound('listings.ad_not_found');
    countReport(this.deps, ip);
    return fileReport(this.deps, input, ip);
  }

  async list(
    actor: SessionUser,
    q: { page?: number; pageSize?: number; status?: ReportStatus; kind?: ReportKind },
  ): Promise<ResponseOf<ReportsApi['GET /api/admin/get-reports']>> {
    const { page, pageSize, offset } = paging(q);
    const { rows, total } = await repo.listReports(this.deps.db, { status: q.status, kind: q.kind, offset, limit: pageSize });
    // Each report with the ad it names (photo, title, status, owner), for acting from where it is read.
    const ads = await reportAds(
      this.deps,
      rows.flatMap((r) => (r.ad_id ? [r.ad_id] : [])),
    );
    const reports = [];
    for (const r of rows) {
      const report = { ...toDto(r), ad: (r.ad_id && ads.get(r.ad_id)) || null };
      // About the reader's own ad (a held copy's or a deleted one's too): who sent it and what it says are another admin's to read.
      const adOwnerId = r.ad_id ? (report.ad?.ownerId ?? (await ownerOfReportedAd(this.deps.db, r.ad_id))) : null;
      reports.push(can(actor, 'setStatus', { id: r.id, adOwnerId }) ? report : { ...report, message: '', contact: null, ipHash: null });
    }
    return { reports, total, page, pageSize };
  }

  /** Opens or closes a report, closing with an optional note; audited in the same transaction. */
  async setStatus(actor: SessionUser, id: string, status: ReportStatus, rawNote?: string): Promise<Report> {
    // One line without control, format and bidi characters, as public text is (the note is audited).
    const note = cleanLine(rawNote ?? '') || undefined;
    if (note !== undefined && (note.length < NOTE_MIN || note.length > NOTE_MAX))
      throw new Invalid('note', 'moderation.note_length', { min: NOTE_MIN, max: NOTE_MAX });
    const report = await transactionAs(this.deps.db, actor, async (trx, by) => {
      // demoted or suspended since the request came in: refused
      const before = await repo.findReport(trx, id);
      if (!before) throw new NotFound('reports.not_found');
      const adOwnerId = before.ad_id ? await ownerOfReportedAd(trx, before.ad_id) : null;
      if (!can(by, 'setStatus', { id, adOwnerId })) throw isStaff(by) ? new Conflict('reports.own_ad') : new Forbidden();
      // The same close with the same note again (a double click, a retry) changes nothing: no second
      // decision row. Another note on a closed report is still recorded.
      if (before.status !== status || (note !== undefined && note !== (await lastReportNote(trx, id)))) {
        await repo.updateReportStatus(trx, id, status);
        await writeAudit(trx, {
          actor: { id: actor.id, email: actor.email },
          action: 'report.status',
          targetType: 'report',
          targetId: id,
          before: { status: before.status },
          after: note ? { status, note } : { status },
          at: this.deps.clock.now().toISOString(),
        });
      }
      return toDto({ ...before, status });
    });
    const ad = report.adId ? (await reportAds(this.deps, [report.adId])).get(report.adId) : undefined;
    return { ...report, ad: ad ?? null };
  }
}
