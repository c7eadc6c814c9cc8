-- The dashboard's figures per UTC day (decision 0268): the pulse (created in the last 7 and 14 days)
-- and the weekly chart (activity on each of the last 7 days) counted every prompt, version and
-- conversation of the window on every load, and for a team every team prompt's versions; they grow
-- with the space's activity. They are kept per space, person and day instead, by triggers in the
-- writing transaction, as rows of changes that are only added (as `dashboard_counts`, decision
-- 0258) and folded with the hourly pruning, which also drops the days no window reaches any more.
--
-- A space is a team (its id: its shared prompts and its conversations) or the nil uuid (private
-- prompts, conversations of no team). The person is who the personal dashboard counts it for:
-- a prompt's owner, a version's writer (none for a version no person wrote, e.g. an API key's),
-- a conversation's owner. So the team dashboard adds up its space's rows, whoever wrote them (team
-- work stays with the team), and the personal one the caller's rows in every space.
CREATE TABLE dashboard_days (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  space_id uuid NOT NULL,
  user_id text,
  day date NOT NULL,
  prompts integer NOT NULL DEFAULT 0,
  -- Every version, and those after the first (version 1 comes with its prompt: the weekly chart
  -- counts it once, as the prompt).
  versions integer NOT NULL DEFAULT 0,
  revisions integer NOT NULL DEFAULT 0,
  conversations integer NOT NULL DEFAULT 0
);
CREATE INDEX dashboard_days_space_day_idx ON dashboard_days (space_id, day);
CREATE INDEX dashboard_days_user_day_idx ON dashboard_days (user_id, day);

CREATE FUNCTION dashboard_space(visibility text, team_id uuid) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN visibility = 'team' THEN team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END
$$;
CREATE FUNCTION dashboard_day(at timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT (at AT TIME ZONE 'UTC')::date
$$;

-- Counts every day again from the rows: here, and after a bulk load that ran without triggers (the
-- benchmarks' seeds).
CREATE FUNCTION dashboard_days_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM dashboard_days;
  INSERT INTO dashboard_days (space_id, user_id, day, prompts, versions, revisions, conversations)
  SELECT space_id, user_id, day, sum(prompts), sum(versions), sum(revisions), sum(conversations) FROM (
    SELECT dashboard_space(p.visibility, p.team_id) AS space_id, p.owner_user_id AS user_id,
      dashboard_day(p.created_at) AS day, 1 AS prompts, 0 AS versions, 0 AS revisions, 0 AS conversations
    FROM prompts p
    UNION ALL
    SELECT dashboard_space(p.visibility, p.team_id), v.created_by_user_id, dashboard_day(v.created_at),
      0, 1, (v.version_number > 1)::int, 0
    FROM prompt_versions v JOIN prompts p ON p.id = v.prompt_id
    UNION ALL
    SELECT coalesce(c.team_id, '00000000-0000-0000-0000-000000000000'::uuid), c.owner_user_id,
      dashboard_day(c.created_at), 0, 0, 0, 1
    FROM conversations c
  ) counted GROUP BY 1, 2, 3;
$$;
SELECT dashboard_days_recount();

-- One prompt added with `sign` 1 or taken away with -1, as the row `p` places it; with its versions
-- when `with_versions` (the versions of a prompt that changed only its owner or creation stay).
CREATE FUNCTION dashboard_days_of_prompt(p prompts, sign integer, with_versions boolean)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_days (space_id, user_id, day, prompts, versions, revisions)
  SELECT dashboard_space(p.visibility, p.team_id), p.owner_user_id, dashboard_day(p.created_at), sign, 0, 0
  UNION ALL
  SELECT dashboard_space(p.visibility, p.team_id), v.created_by_user_id, dashboard_day(v.created_at),
    0, sign * count(*), sign * count(*) FILTER (WHERE v.version_number > 1)
  FROM prompt_versions v WHERE with_versions AND v.prompt_id = p.id GROUP BY 2, 3
$$;

CREATE FUNCTION dashboard_days_prompt_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_days (space_id, user_id, day, prompts)
  SELECT dashboard_space(visibility, team_id), owner_user_id, dashboard_day(created_at), count(*)
  FROM new_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_days_prompt_insert AFTER INSERT ON prompts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_days_prompt_inserted();

-- Before the delete, so that a cascade's version deletes find no prompt and count nothing twice.
CREATE FUNCTION dashboard_days_prompt_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_days_of_prompt(OLD, -1, true);
  RETURN OLD;
END
$$;
CREATE TRIGGER dashboard_days_prompt_delete BEFORE DELETE ON prompts
  FOR EACH ROW EXECUTE FUNCTION dashboard_days_prompt_deleted();

-- Moved to another space or owner, or its creation changed: it leaves its old place and day and
-- joins the new ones; its versions only when the space changed.
CREATE FUNCTION dashboard_days_prompt_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_space boolean := dashboard_space(OLD.visibility, OLD.team_id) <> dashboard_space(NEW.visibility, NEW.team_id);
BEGIN
  PERFORM dashboard_days_of_prompt(OLD, -1, new_space);
  PERFORM dashboard_days_of_prompt(NEW, 1, new_space);
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_days_prompt_move AFTER UPDATE OF owner_user_id, team_id, visibility, created_at ON prompts
  FOR EACH ROW
  WHEN (OLD.owner_user_id IS DISTINCT FROM NEW.owner_user_id OR OLD.team_id IS DISTINCT FROM NEW.team_id
    OR OLD.visibility IS DISTINCT FROM NEW.visibility OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION dashboard_days_prompt_moved();

-- Versions written or deleted, counted where their prompt is (`sign` 1 or -1); versions whose
-- prompt is gone were taken away with it. PL/pgSQL plans a statement when it first runs it, so each
-- branch names only the transition table its trigger has.
CREATE FUNCTION dashboard_days_versions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_days (space_id, user_id, day, versions, revisions)
    SELECT dashboard_space(p.visibility, p.team_id), v.created_by_user_id, dashboard_day(v.created_at),
      count(*), count(*) FILTER (WHERE v.version_number > 1)
    FROM new_rows v JOIN prompts p ON p.id = v.prompt_id GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO dashboard_days (space_id, user_id, day, versions, revisions)
    SELECT dashboard_space(p.visibility, p.team_id), v.created_by_user_id, dashboard_day(v.created_at),
      -count(*), -count(*) FILTER (WHERE v.version_number > 1)
    FROM old_rows v JOIN prompts p ON p.id = v.prompt_id GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_days_versions_insert AFTER INSERT ON prompt_versions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_days_versions_changed();
CREATE TRIGGER dashboard_days_versions_delete AFTER DELETE ON prompt_versions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_days_versions_changed();

-- A version's writer set to none (their account deleted), its creation or number changed: it
-- leaves its old person and day and joins the new ones.
CREATE FUNCTION dashboard_days_version_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_days (space_id, user_id, day, versions, revisions)
  SELECT dashboard_space(p.visibility, p.team_id), OLD.created_by_user_id, dashboard_day(OLD.created_at),
    -1, -(OLD.version_number > 1)::int
  FROM prompts p WHERE p.id = OLD.prompt_id
  UNION ALL
  SELECT dashboard_space(p.visibility, p.team_id), NEW.created_by_user_id, dashboard_day(NEW.created_at),
    1, (NEW.version_number > 1)::int
  FROM prompts p WHERE p.id = NEW.prompt_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_days_version_move
  AFTER UPDATE OF prompt_id, version_number, created_by_user_id, created_at ON prompt_versions
  FOR EACH ROW
  WHEN (OLD.prompt_id IS DISTINCT FROM NEW.prompt_id OR OLD.version_number IS DISTINCT FROM NEW.version_number
    OR OLD.created_by_user_id IS DISTINCT FROM NEW.created_by_user_id OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION dashboard_days_version_moved();

CREATE FUNCTION dashboard_days_conversations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_days (space_id, user_id, day, conversations)
    SELECT coalesce(team_id, '00000000-0000-0000-0000-000000000000'::uuid), owner_user_id,
      dashboard_day(created_at), count(*)
    FROM new_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO dashboard_days (space_id, user_id, day, conversations)
    SELECT coalesce(team_id, '00000000-0000-0000-0000-000000000000'::uuid), owner_user_id,
      dashboard_day(created_at), -count(*)
    FROM old_rows GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_days_conversations_insert AFTER INSERT ON conversations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_days_conversations_changed();
CREATE TRIGGER dashboard_days_conversations_delete AFTER DELETE ON conversations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_days_conversations_changed();

-- A conversation moved to another team (or none: its team deleted), owner or creation.
CREATE FUNCTION dashboard_days_conversation_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_days (space_id, user_id, day, conversations) VALUES
    (coalesce(OLD.team_id, '00000000-0000-0000-0000-000000000000'::uuid), OLD.owner_user_id, dashboard_day(OLD.created_at), -1),
    (coalesce(NEW.team_id, '00000000-0000-0000-0000-000000000000'::uuid), NEW.owner_user_id, dashboard_day(NEW.created_at), 1);
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_days_conversation_move AFTER UPDATE OF team_id, owner_user_id, created_at ON conversations
  FOR EACH ROW
  WHEN (OLD.team_id IS DISTINCT FROM NEW.team_id OR OLD.owner_user_id IS DISTINCT FROM NEW.owner_user_id
    OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION dashboard_days_conversation_moved();

-- Drops the days before `keep_from`, which no window reaches any more, and folds the rows of each
-- space, person and day that has more than one into one (none when they add up to nothing);
-- answers how many rows went. Processes folding at once are safe: a row another one deleted
-- meanwhile is skipped, and rows added meanwhile stay for the next fold.
CREATE FUNCTION dashboard_days_fold(keep_from date) RETURNS integer LANGUAGE sql AS $$
  WITH expired AS (
    DELETE FROM dashboard_days WHERE day < keep_from RETURNING 1
  ), gone AS (
    DELETE FROM dashboard_days d USING (
      SELECT space_id, user_id, day FROM dashboard_days WHERE day >= keep_from
      GROUP BY 1, 2, 3 HAVING count(*) > 1) many
    WHERE d.space_id = many.space_id AND d.user_id IS NOT DISTINCT FROM many.user_id AND d.day = many.day
    RETURNING d.space_id, d.user_id, d.day, d.prompts, d.versions, d.revisions, d.conversations
  ), folded AS (
    INSERT INTO dashboard_days (space_id, user_id, day, prompts, versions, revisions, conversations)
    SELECT space_id, user_id, day, sum(prompts), sum(versions), sum(revisions), sum(conversations)
    FROM gone GROUP BY 1, 2, 3
    HAVING sum(prompts) <> 0 OR sum(versions) <> 0 OR sum(revisions) <> 0 OR sum(conversations) <> 0
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM expired)::int + (SELECT count(*) FROM gone)::int - (SELECT count(*) FROM folded)::int
$$;

ANALYZE dashboard_days;
