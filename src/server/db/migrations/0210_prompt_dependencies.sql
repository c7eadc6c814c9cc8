-- "Used by" from a dependency table (decision 0210): one row per version and prompt name
-- that version includes with a @@@langfusePrompt:name=…|label=…@@@ (or |version=N) tag, written
-- with the version by the app (src/server/modules/prompts/references.ts) and gone with it.
CREATE TABLE prompt_dependencies (
  version_id uuid NOT NULL,
  prompt_id uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
  name text NOT NULL,
  PRIMARY KEY (version_id, name),
  FOREIGN KEY (version_id, prompt_id) REFERENCES prompt_versions (id, prompt_id) ON DELETE CASCADE
);
-- Who includes NAME: the prompts of a space are joined to these by prompt_id.
CREATE INDEX prompt_dependencies_name_idx ON prompt_dependencies (name, prompt_id);

-- The versions written before: the tags read as src/domain/prompt-references.ts reads them (the
-- name first, exactly two parts, label=… or version=N; a tag does not span lines).
INSERT INTO prompt_dependencies (version_id, prompt_id, name)
SELECT DISTINCT v.id, v.prompt_id, substr(split_part(m[1], '|', 1), 6)
FROM prompt_versions v
CROSS JOIN LATERAL regexp_matches(v.body, '@@@langfusePrompt:([^\n\r\u2028\u2029]*?)@@@', 'g') AS m
WHERE v.body LIKE '%@@@langfusePrompt:%'
  AND m[1] ~ '^name=[^|]+\|(label=[^|]+|version=[1-9][0-9]{0,8})$';
