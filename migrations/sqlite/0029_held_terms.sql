-- An ad staff approve while its owner's account is not approved (pending, or suspended) shows
-- nowhere: its paid term is held and starts, whole, when the owner is approved
-- (ads.repository.ts startHeldTerms). Marked per ad, so that only such terms start then: an owner
-- set back to pending and approved again does not revive ads that already ran.
ALTER TABLE ads ADD COLUMN term_held INTEGER NOT NULL DEFAULT 0;

-- Ads approved before this column, of owners still pending: theirs are held (an owner set back to
-- pending after ads of theirs ran is rare, and not told apart here).
UPDATE ads SET term_held = 1
WHERE status IN ('approved', 'expired') AND published_at IS NOT NULL AND expires_at IS NOT NULL
  AND owner_id IN (SELECT id FROM users WHERE status = 'pending');
