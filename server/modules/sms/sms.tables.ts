import type { Generated } from 'kysely';

/** Stored states of a message: ours (outbox … error), then Textbelt's delivery statuses in lower case. */
export type SmsStatusValue = 'outbox' | 'test' | 'accepted' | 'refused' | 'error' | 'sending' | 'sent' | 'delivered' | 'failed' | 'unknown';
export type SmsPurpose = 'verification' | 'test';

/** The sms module's tables (migrations/sqlite/0007_sms.sql, 0030_phone_texts.sql), as Kysely sees them. */
export interface SmsTables {
  textbelt_tokens: {
    id: number;
    token: string | null;
    updated_at: string | null;
    updated_by: string | null;
  };
  sms_messages: {
    id: Generated<number>;
    to_phone: string;
    body: string;
    purpose: SmsPurpose;
    user_id: string | null;
    status: SmsStatusValue;
    text_id: string | null;
    error: string | null;
    quota_remaining: number | null;
    created_at: string;
    status_checked_at: string | null;
  };
  phone_codes: {
    id: Generated<number>;
    user_id: string;
    phone: string;
    code_hash: string;
    created_at: string;
    expires_at: string;
    attempts: Generated<number>;
    used_at: string | null;
    burned_at: string | null;
  };
  /** A verification text sent (or maybe sent), by a keyed hash of the number: the per-number limit. */
  phone_texts: {
    id: Generated<number>;
    phone_key: string;
    sent_at: string;
  };
}
