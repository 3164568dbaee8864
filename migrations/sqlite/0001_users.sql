-- Accounts, roles, sign-in records, e-mail changes, the staff audit log, wallets and the ledger.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  nickname TEXT NOT NULL,
  avatar TEXT,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'suspended')),
  phone TEXT,
  phone_verified_at TEXT,
  token_version INTEGER NOT NULL DEFAULT 0,
  welcome_promo_sent_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
-- E-mail is unique case-insensitively among live accounts (erased accounts keep a placeholder).
CREATE UNIQUE INDEX users_email_unique ON users (lower(email));
CREATE INDEX users_status_created ON users (status, created_at);

CREATE TABLE user_roles (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER')),
  PRIMARY KEY (user_id, role)
) WITHOUT ROWID;
CREATE INDEX user_roles_role ON user_roles (role);

-- Kept for trust and safety (legal holds, law-enforcement records).
CREATE TABLE sign_ins (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ip TEXT NOT NULL,
  user_agent TEXT,
  at TEXT NOT NULL
);
CREATE INDEX sign_ins_user ON sign_ins (user_id, at);

CREATE TABLE email_changes (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  new_email TEXT NOT NULL,
  created_at TEXT NOT NULL,
  confirmed_at TEXT
);
CREATE INDEX email_changes_user ON email_changes (user_id);

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  actor_id TEXT,
  actor_email TEXT,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT,
  before_json TEXT,
  after_json TEXT,
  at TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_target ON audit_log (target_type, target_id);

CREATE TABLE wallets (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  wallet_type TEXT NOT NULL CHECK (wallet_type IN ('USD', 'XG-PROMO-WALLET')),
  balance_cents INTEGER NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
  created_at TEXT NOT NULL,
  UNIQUE (user_id, wallet_type)
);

-- Every change of a balance is a row here; a wallet's balance always equals the sum of its entries.
CREATE TABLE ledger_entries (
  id INTEGER PRIMARY KEY,
  wallet_id TEXT NOT NULL REFERENCES wallets (id),
  amount_cents INTEGER NOT NULL CHECK (amount_cents <> 0),
  kind TEXT NOT NULL,
  reference TEXT,
  idempotency_key TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE INDEX ledger_entries_wallet ON ledger_entries (wallet_id, id);
