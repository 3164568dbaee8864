-- The photos of ads in a closed city or state (staff closed it: its ads show nowhere) stop answering
-- the public, as a taken-down ad's do (uploads.withdrawn.ts closedPlaceReason): one row per file
-- and ad, 'closed:<ad id>', lifted when the ad's place is open again. Approved and disabled ads
-- there now; each read by an index (approved ads by city and by state, disabled ones by status).
WITH closed_ads(id, photos) AS (
  SELECT a.id, a.photos_json FROM ads a WHERE a.status = 'approved' AND a.state_id IN (SELECT id FROM states WHERE enabled = 0)
  UNION
  SELECT a.id, a.photos_json FROM ads a WHERE a.status = 'approved' AND a.city_id IN (SELECT id FROM cities WHERE enabled = 0)
  UNION
  SELECT a.id, a.photos_json FROM ads a JOIN cities c ON c.id = a.city_id JOIN states s ON s.id = a.state_id
    WHERE a.status = 'disabled' AND (c.enabled = 0 OR s.enabled = 0)
)
INSERT OR IGNORE INTO withdrawn_uploads (path, reason)
SELECT f.value, 'closed:' || x.id
FROM closed_ads x, json_each(x.photos) p, json_each(json_array(json_extract(p.value, '$.path'), json_extract(p.value, '$.thumbPath'))) f
WHERE f.value IS NOT NULL;
