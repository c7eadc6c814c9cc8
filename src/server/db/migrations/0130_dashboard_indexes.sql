-- The working dashboard: every figure is a count or a list over a time window, per
-- person (personal context) or per team (team context). These indexes serve them, so the
-- dashboard's cost follows the activity of the window, not everything a user or team ever wrote.

-- Prompts created in a window: the caller's own, or a team's shared ones (the lists' partial shape).
CREATE INDEX prompts_owner_created_idx ON prompts (owner_user_id, created_at);
CREATE INDEX prompts_team_created_idx ON prompts (team_id, created_at) WHERE visibility = 'team';

-- Versions created in a window: by the caller (streak, personal pulse) or of a team's prompts.
CREATE INDEX prompt_versions_creator_created_idx ON prompt_versions (created_by_user_id, created_at);
CREATE INDEX prompt_versions_prompt_created_idx ON prompt_versions (prompt_id, created_at);

-- Conversations started in a window.
CREATE INDEX conversations_owner_created_idx ON conversations (owner_user_id, created_at);
CREATE INDEX conversations_team_created_idx ON conversations (team_id, created_at) WHERE team_id IS NOT NULL;

-- The onboarding step 'attach_prompt': has the caller attached any prompt yet.
CREATE INDEX conversation_message_prompts_attacher_idx ON conversation_message_prompts (attached_by_user_id);
