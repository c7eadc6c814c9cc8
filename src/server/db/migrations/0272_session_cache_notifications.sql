-- A signed-in request's session and user are kept in each app process's memory, like the runtime
-- fetch's answers (decision 0286), and dropped by the same channel's notifications, sent from the
-- writing transaction by triggers so that no path can forget them: better-auth's own writes
-- (sign-out, refresh, revoking sessions), the app's (role, name, deletion), cascades and the hourly
-- pruning alike.
--
-- Payloads: `u|<user id>` a user's row or one of their sessions changed or went; `U|` more than 100
-- users' sessions went in one statement (every kept session is dropped); `T|` a table whose rows
-- anything kept comes from was truncated (everything kept is dropped).

-- A user's row in a column a kept session holds or is checked by, or a session moved (its expiry
-- pushed out, its token or owner changed). The trigger's argument names the column that holds the
-- user's id. A new session needs nothing: no process can have kept it.
CREATE FUNCTION promptfolio_cache_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(promptfolio_cache_channel(TG_TABLE_SCHEMA), 'u|' || (to_jsonb(OLD) ->> TG_ARGV[0]));
  RETURN NULL;
END $$;
CREATE TRIGGER users_cache_update
  AFTER UPDATE OF id, email, name, role, created_at, banned, deleted_at ON users
  FOR EACH ROW EXECUTE FUNCTION promptfolio_cache_user_changed('id');
CREATE TRIGGER users_cache_delete AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION promptfolio_cache_user_changed('id');
CREATE TRIGGER sessions_cache_update
  AFTER UPDATE OF token, user_id, expires_at, created_at ON sessions
  FOR EACH ROW EXECUTE FUNCTION promptfolio_cache_user_changed('user_id');

-- Sessions that went, once per statement (a user deleted with many sessions, the pruning). One that
-- had expired needs nothing: a kept session is refused past its expiry by every request anyway
-- (now() is the deleting transaction's start, before any request that could read it later; the
-- margin covers an app server whose clock is up to 5 minutes behind the database's).
CREATE FUNCTION promptfolio_cache_sessions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  channel text := promptfolio_cache_channel(TG_TABLE_SCHEMA);
  owners text[] := ARRAY(SELECT DISTINCT user_id FROM old_rows WHERE expires_at > now() - interval '5 minutes');
BEGIN
  IF cardinality(owners) > 100 THEN
    PERFORM pg_notify(channel, 'U|');
  ELSE
    PERFORM pg_notify(channel, 'u|' || owner) FROM unnest(owners) owner;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_cache_delete AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_sessions_deleted();

-- A TRUNCATE fires no row or delete trigger (an operator's "sign everyone out", a restore): it drops
-- everything kept, here and for the tables of migration 0254.
CREATE FUNCTION promptfolio_cache_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(promptfolio_cache_channel(TG_TABLE_SCHEMA), 'T|');
  RETURN NULL;
END $$;
DO $$
DECLARE
  kept_from text;
BEGIN
  FOREACH kept_from IN ARRAY ARRAY['users', 'sessions', 'prompts', 'prompt_versions', 'prompt_labels', 'api_keys', 'plan_subjects'] LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_truncated()',
      kept_from || '_cache_truncate', kept_from);
  END LOOP;
END $$;
