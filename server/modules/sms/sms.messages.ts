import type { SmsMessage } from '../../../contract/api/sms.ts';
import type { Said } from '../../../contract/api/common.ts';
import type { SmsPurpose } from './sms.tables.ts';
import type { MessageRow } from './sms.repository.ts';

// A text message on its way and in the log: what is sent and what is stored of it, the number as
// the server's log shows it, and a stored row as staff read it (its failure as a code).

/** A message to send: `storedText` is what staff may see (a verification code masked). */
export interface OutgoingSms {
  to: string;
  text: string;
  storedText: string;
  purpose: SmsPurpose;
  userId: string | null;
}

/**
 * A phone number as the log shows it: its last four digits. The log is shipped and kept past an
 * account's erasure, and the number is personal data the product otherwise erases.
 */
export const maskPhone = (phone: string) => `•••${phone.replace(/\D/g, '').slice(-4)}`;

/**
 * The log's error column holds the failure as JSON of its code (written since the codes); a row
 * written before holds the server's English words, handed over as they are.
 */
const STORED_SAID = '{"code":"sms.';
function failureOf(stored: string | null): { error: string | null; failure?: Said } {
  if (!stored?.startsWith(STORED_SAID)) return { error: stored };
  try {
    return { error: null, failure: JSON.parse(stored) as Said };
  } catch {
    return { error: stored };
  }
}

export const toDto = (r: MessageRow): SmsMessage => ({
  id: r.id,
  to: r.to_phone,
  text: r.body,
  purpose: r.purpose,
  status: r.status,
  textId: r.text_id,
  ...failureOf(r.error),
  quotaRemaining: r.quota_remaining,
  createdAt: r.created_at,
  statusCheckedAt: r.status_checked_at,
});
