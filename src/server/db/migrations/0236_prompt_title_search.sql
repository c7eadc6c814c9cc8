-- The title's and the description's text vectors, stored (decision 0236), as the body's
-- are since decision 0215: a search computed to_tsvector three times for every matching prompt
-- (once to recheck the match, twice to rank it), 2–4 µs each, which grew the search's time with
-- the number of matches (304 for "email" among one owner's 10,000 prompts: 2.5 of its 6.8 ms).
-- The full-text indexes are on the two vectors joined, which matches the same words at the same
-- positions as the vector of title and description joined by a space.
ALTER TABLE prompts
  ADD COLUMN title_search tsvector NOT NULL GENERATED ALWAYS AS (to_tsvector('simple', title)) STORED,
  ADD COLUMN description_search tsvector NOT NULL
    GENERATED ALWAYS AS (to_tsvector('simple', coalesce(description, ''))) STORED;
DROP INDEX prompts_owner_search_fts_idx;
DROP INDEX prompts_search_fts_idx;
CREATE INDEX prompts_owner_search_fts_idx ON prompts USING gin (owner_user_id, (title_search || description_search));
CREATE INDEX prompts_search_fts_idx ON prompts USING gin ((title_search || description_search));
-- The rewritten table's statistics, including the new index expression's, for the next plans.
ANALYZE prompts;
