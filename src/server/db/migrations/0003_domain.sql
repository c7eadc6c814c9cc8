-- The spec's entities (§3): profiles, teams, prompts with versions, conversations with messages
-- and prompt attachments.
CREATE TABLE profiles (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  display_name varchar(80),
  preferred_locale text NOT NULL DEFAULT 'en' CHECK (preferred_locale IN ('en', 'de')),
  timezone text NOT NULL DEFAULT 'UTC',
  ui_theme text NOT NULL DEFAULT 'system' CHECK (ui_theme IN ('system', 'light', 'dark')),
  notification_prefs jsonb NOT NULL DEFAULT
    '{"mentions":{"in_app":true,"email":true},"invites":{"in_app":true,"email":true}}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE teams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
  created_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE team_members (
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('admin', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user_id_idx ON team_members (user_id);

CREATE TABLE invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  email text NOT NULL CHECK (email = lower(email)),
  invited_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  role text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'expired', 'revoked')),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX invitations_one_pending_per_email ON invitations (team_id, email) WHERE status = 'pending';
CREATE INDEX invitations_team_id_idx ON invitations (team_id, created_at DESC);

CREATE TABLE prompts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  team_id uuid REFERENCES teams (id),
  title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 200),
  description text CHECK (description IS NULL OR length(description) <= 2000),
  tags text[] NOT NULL DEFAULT '{}',
  visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'team')),
  current_version_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (visibility = 'private' OR team_id IS NOT NULL)
);
CREATE INDEX prompts_owner_updated_idx ON prompts (owner_user_id, updated_at DESC, id DESC);
CREATE INDEX prompts_team_updated_idx ON prompts (team_id, updated_at DESC, id DESC) WHERE visibility = 'team';
CREATE INDEX prompts_tags_idx ON prompts USING gin (tags);
CREATE INDEX prompts_title_trgm_idx ON prompts USING gin (title gin_trgm_ops);

CREATE TABLE prompt_versions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  prompt_id uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
  version_number integer NOT NULL CHECK (version_number > 0),
  body text NOT NULL CHECK (length(btrim(body)) > 0),
  changelog text,
  created_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (prompt_id, version_number)
);

ALTER TABLE prompts
  ADD CONSTRAINT prompts_current_version_fk FOREIGN KEY (current_version_id)
  REFERENCES prompt_versions (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE conversations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 200),
  team_id uuid REFERENCES teams (id) ON DELETE SET NULL,
  owner_user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  tags text[] NOT NULL DEFAULT '{}',
  content jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversations_owner_updated_idx ON conversations (owner_user_id, updated_at DESC, id DESC);
CREATE INDEX conversations_team_updated_idx ON conversations (team_id, updated_at DESC, id DESC) WHERE team_id IS NOT NULL;
CREATE INDEX conversations_tags_idx ON conversations USING gin (tags);
CREATE INDEX conversations_title_trgm_idx ON conversations USING gin (title gin_trgm_ops);

CREATE TABLE conversation_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  created_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  role text NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
  content jsonb NOT NULL,
  model text,
  token_count integer CHECK (token_count IS NULL OR token_count >= 0),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX conversation_messages_page_idx ON conversation_messages (conversation_id, created_at, id);

CREATE TABLE conversation_message_prompts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  message_id uuid NOT NULL REFERENCES conversation_messages (id) ON DELETE CASCADE,
  prompt_id uuid NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
  prompt_version_id uuid REFERENCES prompt_versions (id) ON DELETE CASCADE,
  attached_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  notes text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversation_message_prompts_message_idx ON conversation_message_prompts (message_id);
CREATE INDEX conversation_message_prompts_prompt_idx ON conversation_message_prompts (prompt_id);
CREATE INDEX conversation_message_prompts_version_idx ON conversation_message_prompts (prompt_version_id);
