import { createHash } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import type { Executor } from '../../core/db.ts';
import { currentActor, type SessionUser } from '../../core/auth.ts';
import { writeAudit } from '../../core/audit.ts';
import { forgetInOutbox } from '../../core/mailer.ts';
import { Conflict, Invalid, NotFound } from '../../core/errors.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { paging } from '../../core/http.ts';
import { removeUpload } from '../uploads/uploads.storage.ts';
import type { SearchStatus } from '../../../contract/api/ads.ts';
import type { ReportAd } from '../../../contract/api/reports.ts';
import {
  HOLD_REASON_MAX,
  HOLD_REASON_MIN,
  NOTE_MAX,
  NOTE_MIN,
  type DuplicateFlag,
  type HoldTarget,
  type LegalHold,
  type Transparency,
  type UserDetail,
} from '../../../contract/api/moderation.ts';
import { may } from './moderation.access.ts';
import { toHold, toModAd } from './moderation.dto.ts';
import { userDetail } from './moderation.user.ts';
import { parseStaffQuery, staffReads } from './moderation.match.ts';
import { completeDeferredDeletions } from './moderation.holds.ts';
import { evidenceFiles, type EvidenceSubject } from './moderation.export.ts';
import { buildZip } from './moderation.zip.ts';
import { computeTransparency, transparencyVersion } from './moderation.transparency.ts';
import { cleanLine } from '../../../contract/rules.ts';
import * as repo from './moderation.repository.ts';
import * as accountRepo from './moderation.account.repository.ts';

const MAX_FLAG_IDS = 100;

/** The ad a report names, as the reports screen shows it (reports.service.ts asks). */
export async function reportAds(deps: Pick<AppDeps, 'db'>, adIds: readonly string[]): Promise<Map<string, ReportAd>> {
  const rows = await repo.adsById(deps.db, [...new Set(adIds)]);
  return new Map(
    rows.map((r) => {
      const ad = toModAd(r);
      return [
        r.id,
        {
          id: ad.id,
          title: ad.title,
          status: ad.status,
          thumbUrl: ad.thumbUrl,
          ownerId: ad.owner.id,
          ownerEmail: ad.owner.email,
          ownerNickname: ad.owner.nickname,
          held: ad.held,
        },
      ];
    }),
  );
}

export class ModerationService {
  private readonly deps: AppDeps;
  private transparencyCache: { version: string; value: Transparency } | null = null;

  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  async search(actor: SessionUser, q: { query?: string; status?: SearchStatus; page?: number; pageSize?: number }) {
    may(actor, 'search');
    const { page, pageSize, offset } = paging(q);
    const query = parseStaffQuery(q.query);
    const { rows, total } = await repo.searchAds(staffReads(this.deps, query), { query, status: q.status, offset, limit: pageSize });
    return { ads: rows.map(toModAd), total, page, pageSize };
  }

  /** One user, whole (moderation.user.ts). */
  async user(actor: SessionUser, id: string): Promise<UserDetail> {
    return userDetail(this.deps, actor, id);
  }

  /** The account a hold or an export is about: the user itself, or the ad's owner (live or kept). */
  private async subjectOf(db: AppDeps['db'], targetType: HoldTarget, targetId: string): Promise<string> {
    if (targetType === 'user') {
      const u = await accountRepo.findUser(db, targetId);
      if (!u) throw new NotFound('moderation.user_not_found');
      return u.id;
    }
    const owner = await repo.ownerOfAd(db, targetId);
    if (!owner) throw new NotFound('ad.not_found');
    return owner;
  }

  /** Places a legal hold (audited in the same transaction). Several holds may cover one subject (one per legal request). */
  async placeHold(actor: SessionUser, input: { targetType: HoldTarget; targetId: string; reason: string }): Promise<LegalHold> {
    // Stored as one line without control, format and bidi characters, as public text is: an RLO or
    // a backspace would make the hold and its audit row read as something else.
    const reason = cleanLine(input.reason);
    if (reason.length < HOLD_REASON_MIN || reason.length > HOLD_REASON_MAX) {
      throw new Invalid('reason', 'moderation.hold_reason_length', { min: HOLD_REASON_MIN, max: HOLD_REASON_MAX });
    }
    const at = this.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const userId = await this.subjectOf(trx, input.targetType, input.targetId);
      may(await currentActor(trx, actor), 'hold', userId);
      const row = await repo.insertHold(trx, { id: newId(), targetType: input.targetType, targetId: input.targetId, userId, reason, by: actor, at });
      await writeAudit(trx, {
        actor: { id: actor.id, email: actor.email },
        action: 'legal_hold.place',
        targetType: input.targetType,
        targetId: input.targetId,
        after: { holdId: row.id, reason },
        at,
      });
      return toHold(row);
    });
  }

  /**
   * Releases the holds named (those the staff member saw on the subject), with a note (audited).
   * Several holds may cover one subject, each answering its own legal request: a hold placed since
   * the screen was read is never released with the ones shown, and a named hold no longer in force
   * on the subject (released meanwhile, or another subject's) refuses the whole release (409), so
   * nothing is released on a screen that no longer says what is in force. Once no hold remains on
   * the subject, deletions asked for while it was held are completed, for whatever no other hold
   * still covers.
   */
  async releaseHold(
    actor: SessionUser,
    input: { targetType: HoldTarget; targetId: string; holdIds: readonly string[]; note: string },
  ): Promise<{ released: number }> {
    const note = cleanLine(input.note); // as a hold's reason is
    if (note.length < NOTE_MIN || note.length > NOTE_MAX) throw new Invalid('note', 'moderation.note_length', { min: NOTE_MIN, max: NOTE_MAX });
    const named = [...new Set(input.holdIds)];
    const at = this.now();
    const { released, files, outbox } = await this.deps.db.transaction().execute(async (trx) => {
      const inForce = await repo.activeHoldsOn(trx, input.targetType, input.targetId);
      if (!inForce.length) {
        await this.subjectOf(trx, input.targetType, input.targetId); // 404 for an unknown subject
        throw new Conflict('moderation.not_held');
      }
      const userId = inForce[0].user_id;
      may(await currentActor(trx, actor), 'release', userId);
      const ids = new Set(inForce.map((h) => h.id));
      if (!named.every((id) => ids.has(id))) throw new Conflict('moderation.hold_changed');
      await repo.releaseHolds(trx, named, actor, note, at);
      const last = named.length === inForce.length;
      const done = last ? await completeDeferredDeletions(trx, userId, `!erased:${randomToken()}`, at) : { ads: 0, erased: false, files: [], outbox: [] };
      await writeAudit(trx, {
        actor: { id: actor.id, email: actor.email },
        action: 'legal_hold.release',
        targetType: input.targetType,
        targetId: input.targetId,
        before: { holdIds: named },
        after: { note, deletedAds: done.ads, accountErased: done.erased },
        at,
      });
      return { released: named.length, files: done.files, outbox: done.outbox };
    });
    for (const f of files) removeUpload(this.deps.config.dataDir, f);
    forgetInOutbox(this.deps.config.dataDir, outbox); // an account erased now: the texts and mail written to the outbox for it

    return { released };
  }

  /**
   * Every hold but those on the reader's own account or ads: a hold answers a legal request that
   * is usually confidential (a preservation letter, a subpoena), and, as placing or releasing one
   * (moderation.policy.ts), reading its reason is never its subject's business.
   */
  async holds(actor: SessionUser, q: { active?: boolean; page?: number; pageSize?: number }) {
    may(actor, 'search');
    const { page, pageSize, offset } = paging(q);
    const { rows, total } = await repo.listHolds(this.deps.db, { active: q.active, exceptUserId: actor.id, offset, limit: pageSize });
    return { holds: rows.map(toHold), total, page, pageSize };
  }

  async duplicateFlags(actor: SessionUser, adIdsCsv: string): Promise<{ flags: DuplicateFlag[] }> {
    may(actor, 'search');
    const ids = [...new Set(adIdsCsv.split(',').map((s) => s.trim()))].filter(Boolean);
    if (ids.length > MAX_FLAG_IDS) throw new Invalid('adIds', 'moderation.too_many_ids', { max: MAX_FLAG_IDS });
    if (!ids.length) return { flags: [] };
    const rows = await repo.flagsOf(this.deps.db, ids);
    const others = new Map((await repo.adsById(this.deps.db, [...new Set(rows.map((r) => r.other_ad_id))])).map((a) => [a.id, a]));
    return {
      flags: rows.map((r) => ({
        adId: r.ad_id,
        otherAdId: r.other_ad_id,
        otherAdTitle: others.get(r.other_ad_id)?.title ?? null,
        otherAdStatus: others.get(r.other_ad_id)?.status ?? null,
        otherOwner: { id: r.other_owner_id, email: r.other_owner_email, nickname: r.other_owner_nickname },
        kind: r.kind,
        distance: r.distance,
      })),
    };
  }

  /**
   * The evidence file of an account or an ad (the id of either): one ZIP (moderation.export.ts).
   * Audited after it is built, with its SHA-256, so the log says exactly which file was handed out.
   */
  async exportEvidence(actor: SessionUser, id: string): Promise<{ fileName: string; zip: Buffer }> {
    const db = this.deps.db;
    const adOwner = await repo.ownerOfAd(db, id);
    const user = adOwner ? undefined : await accountRepo.findUser(db, id);
    if (!adOwner && !user) throw new NotFound('moderation.subject_not_found');
    const subject: EvidenceSubject = adOwner ? { type: 'ad', id, userId: adOwner } : { type: 'user', id, userId: user!.id };
    may(actor, 'export', subject.userId);
    // Asked again as the actor is now, where the record is read and where its handing out is
    // audited: an admin demoted or suspended (or signed out) meanwhile gets no file (403/401), and
    // the log names only files that were handed out, by who could have them when they were.
    const exporter = async (trx: Executor) => {
      const by = await currentActor(trx, actor);
      may(by, 'export', subject.userId);
      return by;
    };
    const at = this.deps.clock.now();
    const files = await evidenceFiles(this.deps, subject, exporter, at);
    const zip = buildZip(files, at);
    const sha256 = createHash('sha256').update(zip).digest('hex');
    const stamp = at.toISOString().replace(/[-:]/g, '').slice(0, 15);
    const fileName = `evidence-${subject.type}-${subject.id}-${stamp}Z.zip`;
    await db.transaction().execute(async (trx) => {
      const by = await exporter(trx);
      await writeAudit(trx, {
        actor: { id: by.id, email: by.email },
        action: 'evidence.export',
        targetType: subject.type,
        targetId: subject.id,
        after: { fileName, bytes: zip.length, sha256, files: files.length, userId: subject.userId },
        at: at.toISOString(),
      });
    });
    return { fileName, zip };
  }

  /** The public transparency report, computed again only when its records moved (or the month turned). */
  async transparency(): Promise<Transparency> {
    const now = this.deps.clock.now();
    const version = await transparencyVersion(this.deps.db, now);
    if (this.transparencyCache?.version !== version) {
      this.transparencyCache = { version, value: await computeTransparency(this.deps.db, now) };
    }
    return this.transparencyCache.value;
  }
}
