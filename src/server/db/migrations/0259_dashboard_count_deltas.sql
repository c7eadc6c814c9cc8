-- The dashboard's counts (migration 0257) become rows that are only ever added: each write adds
-- its own row of changes instead of updating the one row of its person and space. That row was a
-- lock every write of one person in one team took until its commit, so their writes queued on it,
-- and under load it closed a deadlock with the team's row lock (decision 0258). The dashboard
-- already adds the rows up; `dashboard_counts_fold()` (run with the hourly pruning) folds each
-- person's and space's rows into one again.
ALTER TABLE dashboard_counts DROP CONSTRAINT dashboard_counts_pkey;
ALTER TABLE dashboard_counts ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY;
CREATE INDEX dashboard_counts_user_space_idx ON dashboard_counts (user_id, space_id);

CREATE OR REPLACE FUNCTION dashboard_counts_add(counted_user text, counted_space uuid, prompt_delta bigint, version_delta bigint)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_counts (user_id, space_id, prompts, versions)
  VALUES (counted_user, counted_space, prompt_delta, version_delta)
$$;

CREATE OR REPLACE FUNCTION dashboard_counts_prompt_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_counts (user_id, space_id, prompts, versions)
  SELECT owner_user_id,
    CASE WHEN visibility = 'team' THEN team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END,
    count(*), 0
  FROM new_rows GROUP BY 1, 2;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION dashboard_counts_versions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_counts (user_id, space_id, prompts, versions)
    SELECT CASE WHEN p.visibility = 'team' THEN coalesce(v.created_by_user_id, p.owner_user_id) ELSE p.owner_user_id END,
      CASE WHEN p.visibility = 'team' THEN p.team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END,
      0, count(*)
    FROM new_rows v JOIN prompts p ON p.id = v.prompt_id GROUP BY 1, 2;
  ELSE
    INSERT INTO dashboard_counts (user_id, space_id, prompts, versions)
    SELECT CASE WHEN p.visibility = 'team' THEN coalesce(v.created_by_user_id, p.owner_user_id) ELSE p.owner_user_id END,
      CASE WHEN p.visibility = 'team' THEN p.team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END,
      0, -count(*)
    FROM old_rows v JOIN prompts p ON p.id = v.prompt_id GROUP BY 1, 2;
  END IF;
  RETURN NULL;
END
$$;

-- Folds the rows of each person and space that has more than one into one (none when they add up
-- to nothing); answers how many rows went. Processes folding at once are safe: a row another one
-- deleted meanwhile is skipped, and rows added meanwhile stay for the next fold.
CREATE FUNCTION dashboard_counts_fold() RETURNS integer LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM dashboard_counts WHERE (user_id, space_id) IN (
      SELECT user_id, space_id FROM dashboard_counts GROUP BY 1, 2 HAVING count(*) > 1)
    RETURNING user_id, space_id, prompts, versions
  ), folded AS (
    INSERT INTO dashboard_counts (user_id, space_id, prompts, versions)
    SELECT user_id, space_id, sum(prompts), sum(versions) FROM gone GROUP BY 1, 2
    HAVING sum(prompts) <> 0 OR sum(versions) <> 0
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone)::int - (SELECT count(*) FROM folded)::int
$$;
