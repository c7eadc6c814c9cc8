-- The body's text vector, stored (decision 0215): searching a user's prompts computed
-- to_tsvector for every version of every prompt in scope (5,500 bodies, 150 ms, for a user with
-- 500 prompts) and again for each candidate's rank. Stored, it is read, not computed, and the
-- full-text index is on the column.
ALTER TABLE prompt_versions
  ADD COLUMN body_search tsvector NOT NULL GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED;
DROP INDEX prompt_versions_body_fts_idx;
CREATE INDEX prompt_versions_body_fts_idx ON prompt_versions USING gin (body_search);
