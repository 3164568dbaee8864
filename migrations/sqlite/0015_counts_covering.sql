-- The public counters are read by type (a type's total, its states, the numbers per type on the
-- home page) and by state (a state's totals); their indexes now hold the count itself, so those
-- reads never look up a counter's row (issue #15). At 1,000,000 ads (~45,000 counters, measured on
-- a copy of the benchmark's): a type's states 10.1 → 1.8 ms, a type's total 8.4 → 1.1 ms, the
-- totals by type 24.6 → 3.0 ms and by state 16.1 → 3.3 ms, each a pause of the event loop on a
-- miss. The price: a count that changes (an ad entering or leaving the public set) now rewrites
-- its entry in both indexes too, two more b-tree writes in a transaction that already makes many.
DROP INDEX ads_public_counts_type;
DROP INDEX ads_public_counts_state;
CREATE INDEX ads_public_counts_type ON ads_public_counts (listing_type, state_id, n);
CREATE INDEX ads_public_counts_state ON ads_public_counts (state_id, listing_type, n);
