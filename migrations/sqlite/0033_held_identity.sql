-- The e-mail addresses and nicknames a held account had: while a legal hold covers the account (or
-- one of its ads), each change of either is recorded with the value it replaced, so that the
-- evidence file still links the account to the address a preservation request names. Removed when
-- the last hold on the account is released (completeDeferredDeletions), and by any erasure.
CREATE TABLE held_identity (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL,
  field TEXT NOT NULL CHECK (field IN ('email', 'nickname')),
  old_value TEXT NOT NULL,
  new_value TEXT NOT NULL,
  changed_at TEXT NOT NULL
);
CREATE INDEX held_identity_user ON held_identity (user_id);

-- Who released a hold, by id as well as by e-mail: an erased staff member's address is replaced
-- in the holds they released as in those they placed (placed_by keeps the id already).
ALTER TABLE legal_holds ADD COLUMN released_by_id TEXT;
UPDATE legal_holds SET released_by_id = (SELECT u.id FROM users u WHERE lower(u.email) = lower(legal_holds.released_by))
WHERE released_by IS NOT NULL;

-- An erased staff member's audit rows keep who acted (the id) without the address: the erasure
-- finds them by actor.
CREATE INDEX audit_log_actor ON audit_log (actor_id) WHERE actor_id IS NOT NULL;

-- Staff members erased before this migration: their address goes from the audit log and the holds now.
UPDATE audit_log SET actor_email = (SELECT u.email FROM users u WHERE u.id = audit_log.actor_id)
WHERE actor_id IN (SELECT id FROM users WHERE email LIKE 'deleted-%@deleted.invalid');
UPDATE legal_holds SET placed_by_email = (SELECT u.email FROM users u WHERE u.id = legal_holds.placed_by)
WHERE placed_by IN (SELECT id FROM users WHERE email LIKE 'deleted-%@deleted.invalid');
