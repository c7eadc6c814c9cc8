-- Runs of prompts and conversation replies against model providers: one row per request that
-- reached a provider, for the dashboards' usage figures (who ran, in which space, what it cost in
-- tokens). The audit log keeps the same facts for accountability; this table is what is counted.
CREATE TABLE model_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text REFERENCES users (id) ON DELETE CASCADE,
  -- The space whose provider served the run: a team's, or null for the user's personal space.
  team_id uuid REFERENCES teams (id) ON DELETE CASCADE,
  provider_id uuid REFERENCES model_providers (id) ON DELETE SET NULL,
  kind text NOT NULL CHECK (kind IN ('prompt', 'reply')),
  prompt_id uuid REFERENCES prompts (id) ON DELETE SET NULL,
  conversation_id uuid REFERENCES conversations (id) ON DELETE SET NULL,
  model text NOT NULL,
  -- 'ok', 'cancelled' or the reason of a failure ('upstream_rate_limited', ...).
  outcome text NOT NULL,
  input_tokens integer,
  output_tokens integer,
  duration_ms integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX model_runs_user_idx ON model_runs (user_id, created_at DESC);
CREATE INDEX model_runs_team_idx ON model_runs (team_id, created_at DESC) WHERE team_id IS NOT NULL;
-- So that deleting a provider, prompt or conversation finds its runs without reading them all.
CREATE INDEX model_runs_provider_idx ON model_runs (provider_id) WHERE provider_id IS NOT NULL;
CREATE INDEX model_runs_prompt_idx ON model_runs (prompt_id) WHERE prompt_id IS NOT NULL;
CREATE INDEX model_runs_conversation_idx ON model_runs (conversation_id) WHERE conversation_id IS NOT NULL;

-- The model a conversation's replies are generated with (whoever generates one picks it; it stays).
ALTER TABLE conversations
  ADD COLUMN model_provider_id uuid REFERENCES model_providers (id) ON DELETE SET NULL,
  ADD COLUMN model text CHECK (length(model) BETWEEN 1 AND 200);
CREATE INDEX conversations_model_provider_idx ON conversations (model_provider_id)
  WHERE model_provider_id IS NOT NULL;
