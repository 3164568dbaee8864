-- Indexes for the staff screens' reads at 1,000,000 ads (each read names its index: see
-- listForStaff in ads.repository.ts and searchAds in moderation.repository.ts). None of them holds
-- a column a flip (online), a bump (bump_seq, bumped_at) or an edit changes: those writes do not
-- touch them. An ad posted, approved, disabled, enabled or expired writes one or two more entries.

-- The approved-ads screen (GET /api/admin/get-approved-ads, no search), newest published first:
-- one ordered read per status, merged, instead of sorting a million ads for each page (the first
-- page took 5.8 s, page 10,000 took 31 s). Partial: only the statuses that screen lists.
CREATE INDEX ads_staff_published ON ads (status, coalesce(published_at, created_at) DESC, id)
  WHERE status IN ('approved', 'disabled', 'expired');

-- Ad search (GET /api/admin/search-ads) without a status or a search, newest first: the page is
-- read in order from here and merged with the few ads kept under a hold (was 10.8 s a page).
CREATE INDEX ads_created ON ads (created_at DESC, id);

-- The audit log (GET /api/admin/get-audit-log) filtered by action, newest first: the entries of
-- one action in order, and their count, without reading the million others.
CREATE INDEX audit_log_action ON audit_log (action, at);
