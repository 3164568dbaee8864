-- Bitcoin top-ups through BTCPay Server (or the local sandbox): invoices, the webhook inbox, and
-- the sandbox's own invoices. The wallet is credited through the ledger (ledger_entries' UNIQUE
-- idempotency key 'invoice:<BTCPay id>' is the exactly-once guarantee).

CREATE TABLE invoices (
  -- Our order id (BTCPay's metadata.orderId): the row exists before BTCPay is asked, so an
  -- invoice BTCPay created just before a crash can be found again by it.
  id TEXT PRIMARY KEY,
  -- BTCPay's invoice id, the one webhooks and our socket events carry; NULL while 'Creating'.
  btcpay_id TEXT UNIQUE,
  provider TEXT NOT NULL CHECK (provider IN ('btcpay', 'sandbox')),
  user_id TEXT NOT NULL REFERENCES users (id),
  wallet_id TEXT NOT NULL REFERENCES wallets (id),
  amount_cents INTEGER NOT NULL CHECK (amount_cents BETWEEN 1000 AND 100000),
  status TEXT NOT NULL CHECK (status IN ('Creating', 'New', 'Processing', 'Settled', 'Expired', 'Invalid')),
  additional_status TEXT NOT NULL DEFAULT 'None',
  checkout_link TEXT,
  -- The language of the page that asked for it: the receipt e-mail speaks it.
  locale TEXT NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'es', 'pt')),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  -- Last time reconciliation asked BTCPay about it.
  checked_at TEXT,
  credited_at TEXT,
  updated_at TEXT NOT NULL,
  CHECK ((status = 'Creating') = (btcpay_id IS NULL))
);
CREATE INDEX invoices_user ON invoices (user_id, created_at);
CREATE INDEX invoices_status ON invoices (status, expires_at);
CREATE INDEX invoices_created ON invoices (created_at);

-- The webhook inbox: one row per BTCPay delivery, deduplicated by originalDeliveryId (a
-- redelivery carries a new deliveryId and the same originalDeliveryId). Stored before the answer,
-- processed after it; a row left unprocessed (crash, BTCPay unreachable) is processed again by
-- the reconcile-invoices job. Reconciliation's own findings are rows too (type 'Reconciled').
CREATE TABLE webhook_deliveries (
  original_delivery_id TEXT PRIMARY KEY,
  delivery_id TEXT NOT NULL,
  invoice_id TEXT NOT NULL REFERENCES invoices (id),
  type TEXT NOT NULL,
  body TEXT,
  received_at TEXT NOT NULL,
  redeliveries INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  processed_at TEXT,
  -- The invoice's status BTCPay gave when it was processed, and what processing did.
  status TEXT,
  outcome TEXT,
  last_error TEXT
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (received_at) WHERE processed_at IS NULL;
CREATE INDEX webhook_deliveries_invoice ON webhook_deliveries (invoice_id, received_at);
CREATE INDEX webhook_deliveries_received ON webhook_deliveries (received_at);

-- The sandbox provider's invoices (only when BTCPay is not configured): what BTCPay would keep.
CREATE TABLE sandbox_invoices (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  order_id TEXT NOT NULL,
  amount TEXT NOT NULL,
  paid_cents INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  additional_status TEXT NOT NULL,
  metadata_json TEXT NOT NULL,
  redirect_url TEXT NOT NULL,
  created_time INTEGER NOT NULL,
  expiration_time INTEGER NOT NULL
);
CREATE INDEX sandbox_invoices_order ON sandbox_invoices (order_id);
