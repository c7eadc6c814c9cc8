-- The audit log (decision 0145): one row per security-relevant action, written in the
-- transaction of the action. Append-only: no foreign keys (an entry outlives the user, team or key
-- it names, and no cascade may delete it), and a trigger refuses UPDATE and DELETE.

CREATE TABLE audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'api_key', 'system', 'anonymous')),
  actor_user_id text,
  actor_api_key_id uuid,
  -- The actor's email when the entry was written (a failed sign-in: the address tried).
  actor_email text,
  action text NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
  object_type text NOT NULL CHECK (length(object_type) BETWEEN 1 AND 32),
  object_id text,
  team_id uuid,
  before jsonb CHECK (before IS NULL OR jsonb_typeof(before) = 'object'),
  after jsonb CHECK (after IS NULL OR jsonb_typeof(after) = 'object'),
  client_address text
);
CREATE INDEX audit_log_time_idx ON audit_log (created_at DESC, id DESC);
CREATE INDEX audit_log_team_idx ON audit_log (team_id, created_at DESC, id DESC) WHERE team_id IS NOT NULL;
CREATE INDEX audit_log_actor_idx ON audit_log (actor_user_id, created_at DESC, id DESC) WHERE actor_user_id IS NOT NULL;
CREATE INDEX audit_log_action_idx ON audit_log (action, created_at DESC, id DESC);

-- Entries are never changed or removed by the app. The one way around it is deliberate and
-- visible: a transaction that runs `SET LOCAL promptfolio.audit_maintenance = 'on'` (for a legal
-- erasure or a retention job, which do not exist yet).
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('promptfolio.audit_maintenance', true), '') = 'on' THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
