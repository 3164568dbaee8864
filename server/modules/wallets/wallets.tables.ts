/** The wallets module's own tables (migrations/sqlite/0042_welcome_given.sql), as Kysely sees them. */
export interface WalletsTables {
  /** The mailboxes given a welcome code, for good (wallets.service.ts). */
  welcome_given: {
    /** HMAC of the canonical mailbox (wallets.service.ts mailboxKey). */
    mailbox: string;
    /** The account that claimed it; null once that account is erased (profile.repository.ts eraseUser). */
    user_id: string | null;
    /** The code the claim made; deleted with the claim when its e-mail never left. */
    code_id: string | null;
    claimed_at: string;
    /** Null while the e-mail is on its way (a claim). */
    sent_at: string | null;
  };
  /** Accounts sent a code before 0042, whose mailboxes the server hashes at its start. */
  welcome_given_backfill: { user_id: string };
}
