-- Conversations: the database's share of the rules.

-- A message's content is a text object whose text is not blank (§5 "Message send text non-empty").
ALTER TABLE conversation_messages
  ADD CONSTRAINT conversation_messages_content_text_check
  CHECK (jsonb_typeof(content) = 'object' AND length(btrim(content ->> 'text')) > 0);

-- The same prompt version (or "latest", a null version) is attached to a message at most once.
ALTER TABLE conversation_message_prompts
  ADD CONSTRAINT conversation_message_prompts_once
  UNIQUE NULLS NOT DISTINCT (message_id, prompt_id, prompt_version_id);

-- The constraint's index starts with message_id, so the plain message_id index is redundant.
DROP INDEX conversation_message_prompts_message_idx;

-- Attachments keep the order in which they were added, also within one transaction.
ALTER TABLE conversation_message_prompts ALTER COLUMN created_at SET DEFAULT clock_timestamp();
