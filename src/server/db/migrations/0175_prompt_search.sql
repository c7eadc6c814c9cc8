-- Search in prompt bodies: the prompts list matches titles, descriptions and every
-- version's body, by whole words (full-text, 'simple' configuration: no stemming, so English and
-- German text are treated alike) and by any part of a word (trigram, for ILIKE '%x%').
CREATE INDEX prompts_search_fts_idx ON prompts
  USING gin (to_tsvector('simple', title || ' ' || coalesce(description, '')));
CREATE INDEX prompts_description_trgm_idx ON prompts USING gin (description gin_trgm_ops);
CREATE INDEX prompt_versions_body_fts_idx ON prompt_versions USING gin (to_tsvector('simple', body));
CREATE INDEX prompt_versions_body_trgm_idx ON prompt_versions USING gin (body gin_trgm_ops);
