/** The wallets module's own tables (migrations/sqlite/0042_welcome_given.sql, reshaped by 0048), as Kysely sees them. */
export interface WalletsTables {
  /** The mailboxes whose welcome code was redeemed, for good (wallets.service.ts). */
  welcome_given: {
    /** HMAC of the canonical mailbox (wallets.service.ts mailboxKey). */
    mailbox: string;
    /** The account that redeemed it; null once that account is erased (profile.repository.ts eraseUser). */
    user_id: string | null;
    /** The welcome code redeemed. */
    code_id: string | null;
    given_at: string;
  };
  /** Each account's welcome code: a claim while its e-mail is on its way, then the record that it was sent. */
  welcome_claims: {
    user_id: string;
    /** The code the claim made; deleted with the claim when its e-mail never left. */
    code_id: string;
    /** HMAC of the canonical mailbox it was mailed to: the inbox that redeeming it uses up. */
    mailbox: string;
    claimed_at: string;
    /** Null while the e-mail is on its way (a claim). */
    sent_at: string | null;
  };
  /**
   * Accounts holding their welcome code from before 0048, whose mailboxes the server hashes at its
   * start: `given_at` when it was redeemed (its mailbox is given), null when not yet (it gets its claim).
   */
  welcome_given_backfill: { user_id: string; code_id: string; given_at: string | null };
}
