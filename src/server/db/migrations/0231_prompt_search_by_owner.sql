-- Prompt search in one person's prompts (decision 0231): the title and description
-- indexes keyed by owner as well, so that a search in "my prompts" reads only the owner's entries
-- for a word or trigram, not every prompt's that has it (30,316 entries for "email" at 1M prompts
-- against the owner's 304). btree_gin gives GIN the equality operator class for owner_user_id.
CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;
CREATE INDEX prompts_owner_search_fts_idx ON prompts
  USING gin (owner_user_id, to_tsvector('simple', title || ' ' || coalesce(description, '')));
CREATE INDEX prompts_owner_search_trgm_idx ON prompts
  USING gin (owner_user_id, title gin_trgm_ops, description gin_trgm_ops);
