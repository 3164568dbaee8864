-- A deleted ad's own rows in withdrawn_uploads ('unreviewed:<id>', 'ad:<id>') go with it. Migration
-- 0028 kept those of files no hold keeps, since a row never makes a file public: every draft ever
-- posted and deleted (the cart, purge-unpaid-ads) left two rows a photo behind, for ever.
--
-- Deleting them makes nothing public: a row only matters while its file is on disk (the upload
-- route answers 404 for a missing file), and an ad deleted with no hold has its files removed by
-- the deletion itself once it commits (the cart, purge-unpaid-ads, the owner's delete, a profile
-- deletion); one an I/O error left behind is named by no row and removed by the hourly orphan sweep,
-- as the files of a released hold are (moderation.holds.ts). Under a hold the files stay on disk:
-- those the hold withdrew as 'hold' lose only their other rows (as 0028 did); any other keeps its
-- rows, so no file a hold keeps is ever left without one.
DROP TRIGGER withdrawn_uploads_ad_deleted;
CREATE TRIGGER withdrawn_uploads_ad_deleted AFTER DELETE ON ads
BEGIN
  DELETE FROM withdrawn_uploads
  WHERE reason IN ('unreviewed:' || OLD.id, 'ad:' || OLD.id)
    AND (
      path IN (SELECT path FROM withdrawn_uploads WHERE reason = 'hold')
      OR NOT EXISTS (
        SELECT 1 FROM legal_holds
        WHERE released_at IS NULL
          AND ((target_type = 'ad' AND target_id = OLD.id) OR (target_type = 'user' AND target_id = OLD.owner_id))
      )
    );
END;

-- The rows left so far by ads that no longer exist, by the same rule: an ad kept as a held copy
-- (held_ads) keeps those of its files not withdrawn as 'hold'. Read through the reason index (a
-- range of reasons, then each ad by its key): no scan of ads.
DELETE FROM withdrawn_uploads
WHERE ((reason >= 'unreviewed:' AND reason < 'unreviewed;') OR (reason >= 'ad:' AND reason < 'ad;'))
  AND NOT EXISTS (SELECT 1 FROM ads WHERE ads.id = substr(withdrawn_uploads.reason, instr(withdrawn_uploads.reason, ':') + 1))
  AND (
    path IN (SELECT path FROM withdrawn_uploads WHERE reason = 'hold')
    OR NOT EXISTS (SELECT 1 FROM held_ads WHERE held_ads.id = substr(withdrawn_uploads.reason, instr(withdrawn_uploads.reason, ':') + 1))
  );
