-- Prompt craft: each version's declared variables (name, type, required, default,
-- description, enum values), as a JSON array; none declared is [].
ALTER TABLE prompt_versions ADD COLUMN variables jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(variables) = 'array');
