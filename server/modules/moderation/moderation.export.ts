import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { AppDeps } from '../../core/deps.ts';
import type { Executor } from '../../core/db.ts';
import { resolveUpload } from '../uploads/uploads.storage.ts';
import { photoPaths, versionPhotos } from './moderation.holds.ts';
import * as repo from './moderation.account.repository.ts';
import type { ZipEntry } from './moderation.zip.ts';

/**
 * The evidence record of an account or an ad (issue #14, INTEGRATIONS "Trust and safety"), as the
 * files of one ZIP. Layout (every JSON file is the rows as stored, with column names):
 *
 *   README.txt                    what this is, who exported it and when, what each file holds
 *   manifest.json                 subject, export time and staff member, every file with its size and SHA-256
 *   account.json                  the account (every column but the password hash), its roles
 *   account/avatar-<file>         the account's picture, as stored
 *   account/replaced/<n>-<file>   the pictures it replaced while held, kept by the hold (held_files), oldest first
 *   identity-history.json         the e-mails and nicknames it changed while held, with the values replaced
 *   ads/<adId>/versions.json      the ad's versions, oldest first: every stored version (as posted, edited in place, an
 *                                 edit approved), every edit of the live ad (pending, approved, rejected or replaced), the
 *                                 live row and/or the copy kept when it was deleted under a hold
 *   ads/<adId>/photos/<n>-<file>  the ad's photos, as stored (large WebP and thumbnail)
 *   ledger.json                   wallets and every ledger entry of the account
 *   invoices.json                 Bitcoin invoices of the account, with their webhook deliveries
 *   sign-ins.json                 every sign-in kept (successful or refused): time, IP, user agent
 *   reports.json                  reports about the ads, sender contact included (for the authorities)
 *   audit.json                    staff actions on the account, its ads and the reports about them (holds, decisions,
 *                                 report notes, exports before this one)
 *   holds.json                    legal holds on the account or its ads
 *   screening.json                ad texts of the account refused by screening
 *   duplicates.json               duplicate flags of the ads (same phone, near-identical photo)
 *
 * An ad's export holds that ad alone under ads/, with its owner's whole account record beside it.
 * The file is built in memory: an account with thousands of photos would want a streamed archive.
 */
export interface EvidenceSubject {
  type: 'user' | 'ad';
  id: string;
  userId: string;
}

const json = (name: string, value: unknown): ZipEntry => ({ name, data: Buffer.from(`${JSON.stringify(value, null, 2)}\n`), deflate: true });

/**
 * Reads everything in one transaction (one consistent moment), then the photo files. `exporter`
 * is asked first inside that transaction who exports (the service's permission check as the actor
 * is now: it throws to refuse), so the record is read only for whoever may have it at that moment.
 */
export async function evidenceFiles(
  deps: Pick<AppDeps, 'db' | 'config'>,
  subject: EvidenceSubject,
  exporter: (trx: Executor) => Promise<{ id: string; email: string }>,
  at: Date,
): Promise<ZipEntry[]> {
  const { by, data } = await deps.db.transaction().execute(async (trx) => {
    const who = await exporter(trx);
    return { by: { id: who.id, email: who.email }, data: await readEvidence(trx, subject) };
  });
  const files: ZipEntry[] = [];
  const { password_hash: _secret, ...account } = data.user;
  void _secret;
  files.push(json('account.json', { ...account, roles: data.roles }));
  const photoNotes: { ad: string; path: string; stored: boolean }[] = [];
  const readUpload = async (p: string) => {
    const full = resolveUpload(deps.config.dataDir, p);
    return full ? await fs.promises.readFile(full).catch(() => null) : null; // a missing file is named in the manifest
  };
  // The account's pictures, as ad photos are: the current one, and those it replaced while held.
  const pictures = [...(data.user.avatar ? [{ path: data.user.avatar, name: 'account/avatar-' }] : [])];
  data.heldFiles.forEach((f, i) => pictures.push({ path: f.path, name: `account/replaced/${String(i + 1).padStart(2, '0')}-` }));
  for (const pic of pictures) {
    const bytes = await readUpload(pic.path);
    photoNotes.push({ ad: 'account', path: pic.path, stored: bytes !== null });
    if (bytes) files.push({ name: `${pic.name}${pic.path.split('/').pop()}`, data: bytes });
  }
  files.push(json('identity-history.json', data.identity));
  for (const adId of data.adIds) {
    const live = data.ads.live.find((a) => a.id === adId) ?? null;
    const held = data.ads.held.find((a) => a.id === adId) ?? null;
    const stored = data.history.versions.filter((v) => v.ad_id === adId);
    const edits = data.history.revisions.filter((r) => r.ad_id === adId);
    const versions = [
      ...stored.map((v) => ({ version: 'stored', source: v.source, at: v.created_at, fields: JSON.parse(v.fields_json) as unknown })),
      ...edits.map((r) => ({ version: 'edit', status: r.status, at: r.created_at, decidedAt: r.decided_at, row: r })),
      ...(live ? [{ version: 'current', status: live.status, at: live.updated_at, row: live }] : []),
      ...(held ? [{ version: 'deleted', status: 'deleted', at: held.deleted_at, deletedBy: held.deleted_by, row: JSON.parse(held.row_json) as unknown }] : []),
    ];
    files.push(json(`ads/${adId}/versions.json`, versions));
    const paths = [...new Set([...(live ? photoPaths(live.photos_json) : []), ...(held ? photoPaths(held.photos_json) : [])])];
    // Earlier versions' and edits' photos, those still on disk (without a hold, an edit that dropped a photo removed its file).
    const earlier = [
      ...new Set([...stored.flatMap((v) => photoPaths(versionPhotos(v.fields_json))), ...edits.flatMap((r) => photoPaths(r.photos_json))]),
    ].filter((p) => !paths.includes(p));
    let n = 0;
    for (const p of [...paths, ...earlier]) {
      const bytes = await readUpload(p); // a missing file of the ad as it is is named in the manifest
      if (paths.includes(p)) photoNotes.push({ ad: adId, path: p, stored: bytes !== null });
      if (bytes) files.push({ name: `ads/${adId}/photos/${String(++n).padStart(2, '0')}-${p.split('/').pop()}`, data: bytes });
    }
  }
  files.push(json('ledger.json', { wallets: data.wallets, entries: data.ledger }));
  files.push(json('invoices.json', data.invoices));
  files.push(json('sign-ins.json', data.signIns));
  files.push(json('reports.json', data.reports));
  files.push(json('audit.json', data.audit));
  files.push(json('holds.json', data.holds));
  files.push(json('screening.json', data.screening));
  files.push(json('duplicates.json', data.flags));
  const missing = photoNotes.filter((p) => !p.stored).map((p) => `${p.ad}: ${p.path}`);
  const manifest = {
    subject: { type: subject.type, id: subject.id, userId: subject.userId },
    exportedAt: at.toISOString(),
    exportedBy: by,
    ads: data.adIds,
    missingPhotos: missing,
    files: files.map((f) => ({ name: f.name, bytes: f.data.length, sha256: createHash('sha256').update(f.data).digest('hex') })),
  };
  const readme = [
    subject.type === 'user' ? `Evidence record of account ${subject.id}.` : `Evidence record of ad ${subject.id}, posted by account ${subject.userId}.`,
    `Exported ${manifest.exportedAt} by ${by.email} (staff id ${by.id}); the export is recorded in the audit log with this file's SHA-256.`,
    '',
    'manifest.json     every file with its size and SHA-256',
    'account.json      the account as stored (no password hash) and its roles',
    'account/          its picture (avatar-*) and the pictures it replaced while under a legal hold (replaced/)',
    'identity-history.json  the e-mails and nicknames it changed while under a legal hold, with the values replaced (UTC times)',
    'ads/<id>/         each ad: versions.json (every stored version and edit, the live row, the copy kept when it was deleted under a legal hold) and photos/',
    'ledger.json       wallets and every ledger entry (amounts in US cents)',
    'invoices.json     Bitcoin top-up invoices and their webhook deliveries',
    'sign-ins.json     sign-ins kept (180 days, longer under a hold): time (UTC), IP address, user agent, success',
    'reports.json      reports about the ads, with the sender contact when given',
    'audit.json        staff actions on the account, its ads and the reports about them',
    'holds.json        legal holds',
    'screening.json    ad texts refused by screening',
    'duplicates.json   other accounts\u2019 ads with the same phone or a near-identical photo',
    missing.length ? `\nPhotos named by the account or an ad but missing on disk: ${missing.join(', ')}` : '',
    '',
  ].join('\n');
  return [{ name: 'README.txt', data: Buffer.from(readme), deflate: true }, json('manifest.json', manifest), ...files];
}

async function readEvidence(db: Executor, subject: EvidenceSubject) {
  const user = (await repo.findUser(db, subject.userId))!;
  const adIds = subject.type === 'ad' ? [subject.id] : await repo.adIdsOfUser(db, subject.userId);
  const wallets = await repo.walletsOf(db, subject.userId);
  const invoices = await repo.invoicesOf(db, subject.userId, 100_000);
  const deliveries = invoices.length
    ? await db
        .selectFrom('webhook_deliveries')
        .select(['invoice_id', 'original_delivery_id', 'type', 'received_at', 'processed_at', 'status', 'outcome'])
        .where(
          'invoice_id',
          'in',
          invoices.map((i) => i.id),
        )
        .orderBy('received_at')
        .execute()
    : [];
  // The reports about every ad the account ever had, deleted ones too (the user page lists them).
  const reportAds = subject.type === 'ad' ? adIds : await repo.everAdIdsOfUser(db, subject.userId);
  return {
    user,
    roles: await repo.rolesOf(db, subject.userId),
    heldFiles: await repo.heldFilesOf(db, subject.userId),
    identity: await repo.identityHistoryOf(db, subject.userId),
    adIds,
    ads: await repo.adRecords(db, adIds),
    history: await repo.adHistory(db, adIds),
    wallets,
    ledger: (await repo.ledgerOf(db, subject.userId, 1_000_000)).reverse(),
    invoices: invoices.map((i) => ({ ...i, deliveries: deliveries.filter((d) => d.invoice_id === i.id) })),
    signIns: (await repo.signInsOf(db, subject.userId, 1_000_000)).reverse(),
    reports: (await repo.reportsAbout(db, reportAds, 100_000)).reverse(),
    audit: (await repo.auditAbout(db, subject.userId, 1_000_000)).reverse(),
    holds: await repo.holdsOfUser(db, subject.userId),
    screening: await repo.screeningLogOf(db, subject.userId),
    flags: await repo.flagsAbout(db, adIds),
  };
}
