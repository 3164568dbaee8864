import { proxy } from 'valtio';
import { createResource, onReset } from './resource';
import { auditApi, type AuditQuery } from '../api/audit';

export const AUDIT_PAGE_SIZE = 25;
// Every filter, so that a reset (sign-out, another user) clears them all.
const initial = (): AuditQuery => ({ page: 1, pageSize: AUDIT_PAGE_SIZE, action: '', targetType: '', actorId: '', fromDay: '', throughDay: '' });

/** The audit log screen's data area and its filters. */
export const auditLogStore = createResource((q: AuditQuery) => auditApi.list(q));
export const auditQuery = proxy(initial());
onReset(() => Object.assign(auditQuery, initial()));

export function loadAuditLog(change: Partial<AuditQuery> = {}) {
  Object.assign(auditQuery, change);
  return auditLogStore.load({ ...auditQuery });
}

/** Before/after snapshots as one compact line of JSON (empty when there is none). */
export function compactJson(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') {
    // The server may hand over the stored JSON text as is.
    try {
      return JSON.stringify(JSON.parse(v));
    } catch {
      return v;
    }
  }
  return JSON.stringify(v);
}
