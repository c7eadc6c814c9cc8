-- Model providers: the language-model API keys of a space (a user's personal space or a team's),
-- used to run prompts. The key is stored sealed (AES-256-GCM under a key derived from AUTH_SECRET),
-- never in plain text; key_hint keeps its last characters to tell keys apart.

CREATE TABLE model_providers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Exactly one space: a user's personal space, or a team's.
  owner_user_id text REFERENCES users (id) ON DELETE CASCADE,
  team_id uuid REFERENCES teams (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('openai_compatible', 'anthropic')),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  base_url text NOT NULL CHECK (length(base_url) BETWEEN 1 AND 2000),
  sealed_key text NOT NULL CHECK (sealed_key LIKE 'v1:%'),
  key_hint text NOT NULL,
  models text[] NOT NULL DEFAULT '{}',
  default_model text NOT NULL DEFAULT '',
  created_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((owner_user_id IS NULL) <> (team_id IS NULL))
);
CREATE INDEX model_providers_owner_idx ON model_providers (owner_user_id, created_at DESC, id DESC) WHERE owner_user_id IS NOT NULL;
CREATE INDEX model_providers_team_idx ON model_providers (team_id, created_at DESC, id DESC) WHERE team_id IS NOT NULL;
