-- 0032 filled approved_at for the accounts approved or suspended at the upgrade. An account then
-- back under review (pending) after staff had approved it kept none, and its next approval welcomed
-- it a second time: its first approval, from the audit, as 0032 does for suspended accounts. Every
-- approval since 0032 sets the column, so only such accounts have an approval and no approved_at.
UPDATE users SET approved_at = (SELECT min(a.at) FROM audit_log a
    WHERE a.target_type = 'user' AND a.target_id = users.id AND a.action = 'user.status'
      AND json_extract(a.after_json, '$.status') = 'approved')
WHERE approved_at IS NULL;
