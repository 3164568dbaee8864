-- The address a confirmed e-mail change replaced, as a digest (core/mailer.ts addressDigest; null
-- on a change not confirmed, and on those confirmed before this migration): mail sent to it may
-- still sit in DATA_DIR/outbox, and an erasure removes the files addressed to every address the
-- account had (profile.repository.ts namedInOutbox). Not the address itself: an account under no
-- legal hold keeps nothing of its former addresses (a hold keeps them in held_identity). The row
-- goes with the outbox's retention (purge-email-changes), unless a legal hold covers the account.
ALTER TABLE email_changes ADD COLUMN old_email_digest TEXT;
