-- A sandbox invoice paid ("simulate payment") settles a moment later, as a confirmation would. The
-- moment (settle_at, ISO time) and the payment it settles (settle_cents) are kept with the invoice
-- until it is Settled (then null again), so a payment made just before a restart is settled by the
-- next process, not lost with the old one's timer. The sandbox is for development and tests only,
-- and its table is small.
ALTER TABLE sandbox_invoices ADD COLUMN settle_at TEXT;
ALTER TABLE sandbox_invoices ADD COLUMN settle_cents INTEGER;
CREATE INDEX sandbox_invoices_settle ON sandbox_invoices (settle_at) WHERE settle_at IS NOT NULL;
-- Invoices paid before, left Processing for ever by a restart, settle on the next start.
UPDATE sandbox_invoices SET settle_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE status = 'Processing';
