-- The dashboard's totals of prompts and versions (decision 0255): counting them read every prompt
-- and version of the context on every dashboard. They are kept per person and space instead, by
-- triggers in the writing transaction. A space is a team (its id) or the personal prompts (the nil
-- uuid). Prompts count for their owner; versions of a team prompt for the person who wrote them (the
-- owner when no person did, e.g. an API key), versions of a private prompt for its owner. The
-- dashboard adds up the rows of the spaces the caller still reaches: a team they left drops out.
CREATE TABLE dashboard_counts (
  user_id text NOT NULL,
  space_id uuid NOT NULL,
  prompts bigint NOT NULL DEFAULT 0,
  versions bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, space_id)
);
-- The team dashboard's rows: every member's of one team.
CREATE INDEX dashboard_counts_space_idx ON dashboard_counts (space_id);

-- Counts everything again: here, and after a bulk load that ran without triggers (the benchmarks' seeds).
CREATE FUNCTION dashboard_counts_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM dashboard_counts;
INSERT INTO dashboard_counts (user_id, space_id, prompts, versions)
SELECT user_id, space_id, sum(prompts), sum(versions) FROM (
  SELECT p.owner_user_id AS user_id,
    CASE WHEN p.visibility = 'team' THEN p.team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END AS space_id,
    1 AS prompts, 0 AS versions
  FROM prompts p
  UNION ALL
  SELECT CASE WHEN p.visibility = 'team' THEN coalesce(v.created_by_user_id, p.owner_user_id) ELSE p.owner_user_id END,
    CASE WHEN p.visibility = 'team' THEN p.team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END,
    0, 1
  FROM prompt_versions v JOIN prompts p ON p.id = v.prompt_id
) counted GROUP BY user_id, space_id;
$$;
SELECT dashboard_counts_recount();

-- Adds (or with negative numbers takes away) counts of one person in one space.
CREATE FUNCTION dashboard_counts_add(counted_user text, counted_space uuid, prompt_delta bigint, version_delta bigint)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_counts (user_id, space_id, prompts, versions)
  VALUES (counted_user, counted_space, prompt_delta, version_delta)
  ON CONFLICT (user_id, space_id) DO UPDATE
    SET prompts = dashboard_counts.prompts + EXCLUDED.prompts,
        versions = dashboard_counts.versions + EXCLUDED.versions
$$;

-- One prompt's counts (itself and its versions) added with `sign` 1, or taken away with -1, as
-- the prompt row `p` places them.
CREATE FUNCTION dashboard_counts_of_prompt(p prompts, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  space uuid := CASE WHEN p.visibility = 'team' THEN p.team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END;
  counted record;
BEGIN
  PERFORM dashboard_counts_add(p.owner_user_id, space, sign, 0);
  FOR counted IN
    SELECT CASE WHEN p.visibility = 'team' THEN coalesce(v.created_by_user_id, p.owner_user_id) ELSE p.owner_user_id END AS user_id,
      count(*) AS versions
    FROM prompt_versions v WHERE v.prompt_id = p.id GROUP BY 1
  LOOP
    PERFORM dashboard_counts_add(counted.user_id, space, 0, sign * counted.versions);
  END LOOP;
END
$$;

-- A new prompt counts once (its versions count as they are written).
CREATE FUNCTION dashboard_counts_prompt_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_counts AS d (user_id, space_id, prompts, versions)
  SELECT owner_user_id,
    CASE WHEN visibility = 'team' THEN team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END,
    count(*), 0
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (user_id, space_id) DO UPDATE SET prompts = d.prompts + EXCLUDED.prompts;
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_counts_prompt_insert AFTER INSERT ON prompts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_counts_prompt_inserted();

-- A deleted prompt takes itself and the versions it still has away, before a cascade removes them
-- (their own delete trigger then finds no prompt and counts nothing twice).
CREATE FUNCTION dashboard_counts_prompt_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_counts_of_prompt(OLD, -1);
  RETURN OLD;
END
$$;
CREATE TRIGGER dashboard_counts_prompt_delete BEFORE DELETE ON prompts
  FOR EACH ROW EXECUTE FUNCTION dashboard_counts_prompt_deleted();

-- A prompt moved to another space or owner: its counts leave the old place and join the new one.
CREATE FUNCTION dashboard_counts_prompt_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_counts_of_prompt(OLD, -1);
  PERFORM dashboard_counts_of_prompt(NEW, 1);
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_counts_prompt_move AFTER UPDATE OF owner_user_id, team_id, visibility ON prompts
  FOR EACH ROW
  WHEN (OLD.owner_user_id IS DISTINCT FROM NEW.owner_user_id OR OLD.team_id IS DISTINCT FROM NEW.team_id
    OR OLD.visibility IS DISTINCT FROM NEW.visibility)
  EXECUTE FUNCTION dashboard_counts_prompt_moved();

-- Versions written or deleted, counted where their prompt is (`sign` 1 or -1); versions whose
-- prompt is gone were taken away with it.
CREATE FUNCTION dashboard_counts_versions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_counts AS d (user_id, space_id, prompts, versions)
    SELECT CASE WHEN p.visibility = 'team' THEN coalesce(v.created_by_user_id, p.owner_user_id) ELSE p.owner_user_id END,
      CASE WHEN p.visibility = 'team' THEN p.team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END,
      0, count(*)
    FROM new_rows v JOIN prompts p ON p.id = v.prompt_id GROUP BY 1, 2
    ON CONFLICT (user_id, space_id) DO UPDATE SET versions = d.versions + EXCLUDED.versions;
  ELSE
    INSERT INTO dashboard_counts AS d (user_id, space_id, prompts, versions)
    SELECT CASE WHEN p.visibility = 'team' THEN coalesce(v.created_by_user_id, p.owner_user_id) ELSE p.owner_user_id END,
      CASE WHEN p.visibility = 'team' THEN p.team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END,
      0, -count(*)
    FROM old_rows v JOIN prompts p ON p.id = v.prompt_id GROUP BY 1, 2
    ON CONFLICT (user_id, space_id) DO UPDATE SET versions = d.versions + EXCLUDED.versions;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_counts_versions_insert AFTER INSERT ON prompt_versions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_counts_versions_changed();
CREATE TRIGGER dashboard_counts_versions_delete AFTER DELETE ON prompt_versions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_counts_versions_changed();
