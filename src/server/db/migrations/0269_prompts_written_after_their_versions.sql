-- A new prompt is written once (decision 0271). It was written three times: its insert, the
-- version-count trigger's update when its versions came (migration 0264), and the update that made
-- one of them current, each a new row version with entries in every index of `prompts` (eight of
-- them GIN: title, description, tags, current body), since each changes an indexed column. Its
-- versions are now inserted first, the row after them carrying its current version; so:
--
-- - the versions' foreign key to their prompt may be deferred for that pair of statements (checked
--   when the writer sets it immediate again, or at the commit); it stays immediate otherwise;
-- - a prompt inserted after versions of it counts them, where the versions' own triggers found no
--   prompt and counted nothing: its figures (`version_count`, `current_behind`) and its dashboard
--   counts and days. A prompt written before its versions finds none, as before, and their
--   triggers count them, as before.
ALTER TABLE prompt_versions ALTER CONSTRAINT prompt_versions_prompt_id_fkey DEFERRABLE INITIALLY IMMEDIATE;

-- The figures of migration 0264 for a new row, from the versions that exist already (none when the
-- prompt comes first): one index range and the current version's primary key.
CREATE FUNCTION prompts_figures_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT count(*)::int,
    coalesce(max(w.version_number)
      > (SELECT cv.version_number FROM prompt_versions cv WHERE cv.id = NEW.current_version_id), false)
    INTO NEW.version_count, NEW.current_behind
    FROM prompt_versions w WHERE w.prompt_id = NEW.id;
  RETURN NEW;
END
$$;
CREATE TRIGGER prompts_figures_insert BEFORE INSERT ON prompts
  FOR EACH ROW EXECUTE FUNCTION prompts_figures_inserted();

-- The new prompts and, as their versions' trigger would have counted them, the versions they
-- already have. Each prompt's versions are read through its own index range (a LATERAL that
-- aggregates is never turned into a join), so a batch never reads the whole versions table,
-- whatever the statistics say.
CREATE OR REPLACE FUNCTION dashboard_counts_prompt_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_counts (user_id, space_id, prompts, versions)
  SELECT user_id, space_id, sum(prompts), sum(versions) FROM (
    SELECT p.owner_user_id AS user_id,
      CASE WHEN p.visibility = 'team' THEN p.team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END AS space_id,
      1 AS prompts, 0 AS versions
    FROM new_rows p
    UNION ALL
    SELECT CASE WHEN p.visibility = 'team' THEN coalesce(v.writer, p.owner_user_id) ELSE p.owner_user_id END,
      CASE WHEN p.visibility = 'team' THEN p.team_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END,
      0, v.versions
    FROM new_rows p CROSS JOIN LATERAL (
      SELECT w.created_by_user_id AS writer, count(*) AS versions
      FROM prompt_versions w WHERE w.prompt_id = p.id GROUP BY 1
    ) v
  ) counted GROUP BY 1, 2;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION dashboard_days_prompt_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_days (space_id, user_id, day, prompts, versions, revisions)
  SELECT space_id, user_id, day, sum(prompts), sum(versions), sum(revisions) FROM (
    SELECT dashboard_space(p.visibility, p.team_id) AS space_id, p.owner_user_id AS user_id,
      dashboard_day(p.created_at) AS day, 1 AS prompts, 0 AS versions, 0 AS revisions
    FROM new_rows p
    UNION ALL
    SELECT dashboard_space(p.visibility, p.team_id), v.writer, v.day, 0, v.versions, v.revisions
    FROM new_rows p CROSS JOIN LATERAL (
      SELECT w.created_by_user_id AS writer, dashboard_day(w.created_at) AS day, count(*) AS versions,
        count(*) FILTER (WHERE w.version_number > 1) AS revisions
      FROM prompt_versions w WHERE w.prompt_id = p.id GROUP BY 1, 2
    ) v
  ) counted GROUP BY 1, 2, 3;
  RETURN NULL;
END
$$;
