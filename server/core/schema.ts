import type { ColumnType, Generated } from 'kysely';
import type { LocationsTables } from '../modules/locations/locations.tables.ts';
import type { MarketTables } from '../modules/ads/ads.tables.ts';
import type { ReportsTables } from '../modules/reports/reports.tables.ts';
import type { OpsTables } from '../modules/cron/cron.tables.ts';
import type { PaymentsTables } from '../modules/payments/payments.tables.ts';
import type { SmsTables } from '../modules/sms/sms.tables.ts';
import type { HealthTables } from '../modules/health/health.tables.ts';
import type { ModerationTables } from '../modules/moderation/moderation.tables.ts';
import type { UploadsTables } from '../modules/uploads/uploads.tables.ts';
import type { WalletsTables } from '../modules/wallets/wallets.tables.ts';

/** Kysely's view of the database: core tables here, each domain's own tables in its *.tables.ts. */
export interface CoreTables {
  users: {
    id: string;
    email: string;
    password_hash: string;
    nickname: string;
    avatar: string | null;
    status: UserStatus;
    phone: string | null;
    phone_verified_at: string | null;
    token_version: Generated<number>;
    welcome_promo_sent_at: string | null;
    /** When staff first approved the account (migration 0032); null: never. */
    approved_at: string | null;
    /** The language of the pages the user last used (e-mails speak it). */
    locale: Generated<'en' | 'es' | 'pt'>;
    /** 1: no reminder e-mails (the signed footer link). */
    reminders_opt_out: Generated<number>;
    created_at: string;
    updated_at: string;
    deleted_at: string | null;
  };
  user_roles: { user_id: string; role: StaffRole };
  /**
   * success 0 with a failure reason: a refused sign-in of an existing account (migration 0010).
   * ip_key: the network, ipKey(ip) (an IPv4 address, an IPv6 /64), which relates accounts (0034).
   */
  sign_ins: {
    id: Generated<number>;
    user_id: string;
    ip: string;
    ip_key: ColumnType<string | null, string, string>;
    user_agent: string | null;
    at: string;
    success: Generated<number>;
    failure: 'wrong_password' | 'suspended' | null;
  };
  password_resets: { token_hash: string; user_id: string; created_at: string; expires_at: string; used_at: string | null };
  email_changes: { token_hash: string; user_id: string; new_email: string; created_at: string; confirmed_at: string | null; old_email_digest: string | null };
  audit_log: {
    id: Generated<number>;
    actor_id: string | null;
    actor_email: string | null;
    action: string;
    target_type: string;
    target_id: string | null;
    before_json: string | null;
    after_json: string | null;
    at: string;
  };
  wallets: { id: string; user_id: string; wallet_type: WalletType; balance_cents: Generated<number>; created_at: string };
  ledger_entries: {
    id: Generated<number>;
    wallet_id: string;
    amount_cents: number;
    kind: string;
    reference: string | null;
    idempotency_key: string;
    created_at: string;
  };
  /** A request's Idempotency-Key and the answer it got (migration 0037, core/idempotency.ts). */
  request_keys: {
    user_id: string;
    key: string;
    action: string;
    target: string;
    status: number;
    answer_json: string;
    created_at: string;
  };
}

export type UserStatus = 'pending' | 'approved' | 'suspended';
export type StaffRole = 'PROVIDER_USER' | 'ADMIN_USER' | 'MASTER_USER';
export type Role = StaffRole | 'GUEST_USER';
export type WalletType = 'USD' | 'XG-PROMO-WALLET';

export interface DB
  extends
    CoreTables,
    LocationsTables,
    MarketTables,
    ReportsTables,
    OpsTables,
    PaymentsTables,
    SmsTables,
    HealthTables,
    ModerationTables,
    UploadsTables,
    WalletsTables {}
