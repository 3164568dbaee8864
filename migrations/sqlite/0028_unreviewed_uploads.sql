-- A photo no staff member approved is not public: an ad's photos are withdrawn from the moment they
-- are stored (post, edit) until staff approve the ad or the edit that shows them. The reason is
-- 'unreviewed:<ad id>', so the ad's owner still fetches them (and staff, as for every reason).
-- Photos an approved version already showed stay public while a later edit waits for review.

-- An ad deleted under a legal hold keeps its files for staff, withdrawn as 'hold' (moderation.holds.ts,
-- before the row goes); its own reason then names an ad that no longer exists, and would outlive
-- the hold's release, which removes the files and their 'hold' rows. Files no hold keeps are removed
-- with the ad and keep their row: a row never makes a file public.
CREATE TRIGGER withdrawn_uploads_ad_deleted AFTER DELETE ON ads
BEGIN
  DELETE FROM withdrawn_uploads
  WHERE reason = 'unreviewed:' || OLD.id
    AND path IN (SELECT path FROM withdrawn_uploads WHERE reason = 'hold');
END;

-- What no approved version has shown when this runs: the photos of the ads never published
-- (unpaid, in review, rejected) and the new photos of the edits waiting for review. A published
-- ad's own photos (approved, disabled, expired) and an approved edit's were approved.
WITH photo_sets(ad_id, photos) AS (
  SELECT id, photos_json FROM ads
  UNION ALL
  SELECT r.ad_id, r.photos_json FROM ad_revisions r WHERE r.status = 'pending' AND EXISTS (SELECT 1 FROM ads a WHERE a.id = r.ad_id)
),
approved_sets(photos) AS (
  SELECT photos_json FROM ads WHERE status IN ('approved', 'disabled', 'expired')
  UNION ALL
  SELECT photos_json FROM ad_revisions WHERE status = 'approved'
),
approved(path) AS (
  SELECT f.value
  FROM approved_sets s, json_each(s.photos) p, json_each(json_array(json_extract(p.value, '$.path'), json_extract(p.value, '$.thumbPath'))) f
  WHERE f.value IS NOT NULL
)
INSERT OR IGNORE INTO withdrawn_uploads (path, reason)
SELECT f.value, 'unreviewed:' || s.ad_id
FROM photo_sets s, json_each(s.photos) p, json_each(json_array(json_extract(p.value, '$.path'), json_extract(p.value, '$.thumbPath'))) f
WHERE f.value IS NOT NULL AND f.value NOT IN (SELECT path FROM approved);
