-- Public API: prompt names, types, configs and labels; label history; protected labels;
-- API keys. A space is a user's personal prompts (visibility 'private') or a team's (visibility
-- 'team'); a prompt's name is unique in its space.

ALTER TABLE prompts ADD COLUMN name text;
ALTER TABLE prompts ADD COLUMN type text NOT NULL DEFAULT 'text' CHECK (type IN ('text', 'chat'));

-- Existing prompts get a name made from their title ('|' and '/' become '-'); a name taken twice
-- in one space gets the prompt id's first 8 characters after the younger one.
WITH named AS (
  SELECT id,
    CASE WHEN base IN ('new', 'metrics', 'prompt-detail') THEN base || '-1' ELSE base END AS name,
    row_number() OVER (
      PARTITION BY visibility, CASE WHEN visibility = 'team' THEN team_id::text ELSE owner_user_id END,
        lower(base)
      ORDER BY created_at, id
    ) AS rank
  FROM (
    SELECT id, visibility, team_id, owner_user_id, created_at,
      left(btrim(regexp_replace(translate(title, '|/', '--'), '\s+', ' ', 'g')), 240) AS base
    FROM prompts
  ) titled
)
UPDATE prompts SET name = CASE WHEN named.rank = 1 THEN named.name ELSE named.name || '-' || left(prompts.id::text, 8) END
FROM named WHERE named.id = prompts.id;

ALTER TABLE prompts ALTER COLUMN name SET NOT NULL;
ALTER TABLE prompts ADD CONSTRAINT prompts_name_check
  CHECK (length(name) BETWEEN 1 AND 255 AND position('|' IN name) = 0 AND name NOT IN ('new', 'metrics', 'prompt-detail'));
CREATE UNIQUE INDEX prompts_personal_name_idx ON prompts (owner_user_id, name) WHERE visibility = 'private';
CREATE UNIQUE INDEX prompts_team_name_idx ON prompts (team_id, name) WHERE visibility = 'team';

-- A version's model settings (any JSON object) and the API key that made it, when one did.
ALTER TABLE prompt_versions ADD COLUMN config jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(config) = 'object');
ALTER TABLE prompt_versions ADD CONSTRAINT prompt_versions_id_prompt_unique UNIQUE (id, prompt_id);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Exactly one space: a user's personal prompts, or a team's.
  owner_user_id text REFERENCES users (id) ON DELETE CASCADE,
  team_id uuid REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
  public_key text NOT NULL UNIQUE CHECK (public_key LIKE 'pk-%'),
  -- SHA-256 of the secret key (hex); the secret itself is shown once and never stored.
  secret_hash text NOT NULL UNIQUE,
  -- The secret's last four characters, so the list can tell keys apart.
  secret_hint text NOT NULL,
  scope text NOT NULL CHECK (scope IN ('read', 'read_write')),
  created_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  -- The rate limit's fixed window: when it began and how many requests it has seen.
  window_started_at timestamptz NOT NULL DEFAULT now(),
  window_count integer NOT NULL DEFAULT 0,
  CHECK ((owner_user_id IS NULL) <> (team_id IS NULL))
);
CREATE INDEX api_keys_owner_idx ON api_keys (owner_user_id, created_at DESC, id DESC) WHERE owner_user_id IS NOT NULL;
CREATE INDEX api_keys_team_idx ON api_keys (team_id, created_at DESC, id DESC) WHERE team_id IS NOT NULL;

ALTER TABLE prompt_versions ADD COLUMN created_by_api_key_id uuid REFERENCES api_keys (id) ON DELETE SET NULL;

-- Labels other than the two the system keeps: 'production' is prompts.current_version_id ("Set as
-- Current"), 'latest' is the highest version number. A label sits on one version of a prompt.
CREATE TABLE prompt_labels (
  prompt_id uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
  label text NOT NULL CHECK (label ~ '^[a-z0-9_.-]{1,36}$' AND label NOT IN ('latest', 'production')),
  version_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (prompt_id, label),
  FOREIGN KEY (version_id, prompt_id) REFERENCES prompt_versions (id, prompt_id) ON DELETE CASCADE
);
CREATE INDEX prompt_labels_version_idx ON prompt_labels (version_id);

-- Who moved which label from which version to which, and when (production included).
CREATE TABLE prompt_label_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  prompt_id uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
  label text NOT NULL,
  from_version integer,
  to_version integer,
  actor_user_id text REFERENCES users (id) ON DELETE SET NULL,
  api_key_id uuid REFERENCES api_keys (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK (from_version IS DISTINCT FROM to_version)
);
CREATE INDEX prompt_label_events_prompt_idx ON prompt_label_events (prompt_id, created_at DESC, id DESC);

-- Labels only a team's admins may move (in the app and through API keys alike).
CREATE TABLE team_protected_labels (
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  label text NOT NULL CHECK (label ~ '^[a-z0-9_.-]{1,36}$' AND label <> 'latest'),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, label)
);
