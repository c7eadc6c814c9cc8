-- Every foreign key's columns lead an index (decision 0266): deleting a referenced row makes
-- PostgreSQL look for the rows that reference it, and without such an index it reads the whole
-- referencing table once per deleted row. Deleting 100 of 100,000 prompts (900 versions) took 19 s
-- for want of these two: each deleted version read every prompt for a `current_version_id` that
-- names it, and each deleted prompt read every dependency row.
CREATE INDEX prompts_current_version_idx ON prompts (current_version_id);
CREATE INDEX prompt_dependencies_prompt_idx ON prompt_dependencies (prompt_id);
-- A deleted API key (an account's keys go with the account) sets these to null: without an index
-- each deleted key read every version and every label move. Most rows name no key.
CREATE INDEX prompt_versions_api_key_idx ON prompt_versions (created_by_api_key_id)
  WHERE created_by_api_key_id IS NOT NULL;
CREATE INDEX prompt_label_events_api_key_idx ON prompt_label_events (api_key_id) WHERE api_key_id IS NOT NULL;
