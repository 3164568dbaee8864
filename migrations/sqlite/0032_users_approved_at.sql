-- When an account was first approved: the e-mail saying so goes once, the first time, whatever the
-- account went through before (pending → suspended → approved was never told). Null: never approved.
ALTER TABLE users ADD COLUMN approved_at TEXT;

-- Accounts approved now: approved by then.
UPDATE users SET approved_at = updated_at WHERE status = 'approved';

-- Suspended accounts: approved when staff first approved them, if the audit says so; never, if they
-- went from pending to suspended and no approval is recorded; otherwise (an approval older than the
-- audit kept) taken as approved, so that no reinstated account is welcomed twice.
UPDATE users SET approved_at = COALESCE(
  (SELECT min(a.at) FROM audit_log a
    WHERE a.target_type = 'user' AND a.target_id = users.id AND a.action = 'user.status'
      AND json_extract(a.after_json, '$.status') = 'approved'),
  CASE WHEN EXISTS (SELECT 1 FROM audit_log a
    WHERE a.target_type = 'user' AND a.target_id = users.id AND a.action = 'user.status'
      AND json_extract(a.before_json, '$.status') = 'pending' AND json_extract(a.after_json, '$.status') = 'suspended')
  THEN NULL ELSE updated_at END)
WHERE status = 'suspended';
