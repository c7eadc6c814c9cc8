-- Two figures of each prompt the dashboard reads (decision 0264), kept by triggers so that no
-- write path can forget them, in place of counting every version of every prompt of the context on
-- every dashboard load (1M version rows for a space of 100,000 prompts):
-- - `version_count`: how many versions the prompt has ("Top Performers": the most revised);
-- - `current_behind`: whether a version newer than the current one exists (the onboarding step
--   "set an earlier version current").

ALTER TABLE prompts ADD COLUMN version_count integer NOT NULL DEFAULT 0;
ALTER TABLE prompts ADD COLUMN current_behind boolean NOT NULL DEFAULT false;

-- Any change of a prompt row recomputes `current_behind`: a move of its current version, and the
-- change of `version_count` that every added or deleted version makes (below). Two index probes.
CREATE FUNCTION prompts_current_behind() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.current_behind := NEW.current_version_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM prompt_versions cv JOIN prompt_versions w
      ON w.prompt_id = cv.prompt_id AND w.version_number > cv.version_number
    WHERE cv.id = NEW.current_version_id);
  RETURN NEW;
END
$$;
CREATE TRIGGER prompts_current_behind_update BEFORE UPDATE OF current_version_id, version_count ON prompts
  FOR EACH ROW EXECUTE FUNCTION prompts_current_behind();

-- Once per statement, however many versions it wrote (an import adds thousands in one).
CREATE FUNCTION prompt_versions_count_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- PL/pgSQL plans a statement when it first runs it, so each branch names only the transition
  -- table its trigger has.
  IF TG_OP = 'INSERT' THEN
    UPDATE prompts p SET version_count = p.version_count + d.n
      FROM (SELECT prompt_id, count(*)::int AS n FROM new_rows GROUP BY prompt_id) d
      WHERE p.id = d.prompt_id;
  ELSE
    UPDATE prompts p SET version_count = p.version_count - d.n
      FROM (SELECT prompt_id, count(*)::int AS n FROM old_rows GROUP BY prompt_id) d
      WHERE p.id = d.prompt_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER prompt_versions_count_insert AFTER INSERT ON prompt_versions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION prompt_versions_count_changed();
CREATE TRIGGER prompt_versions_count_delete AFTER DELETE ON prompt_versions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION prompt_versions_count_changed();

UPDATE prompts p SET version_count = v.n
  FROM (SELECT prompt_id, count(*)::int AS n FROM prompt_versions GROUP BY prompt_id) v
  WHERE p.id = v.prompt_id;

-- "Top Performers" of a person (their prompts) and of a team (its shared prompts): the first rows
-- of these, in the widget's order.
CREATE INDEX prompts_owner_most_revised_idx
  ON prompts (owner_user_id, version_count DESC, updated_at DESC, id DESC) WHERE version_count > 1;
CREATE INDEX prompts_team_most_revised_idx
  ON prompts (team_id, version_count DESC, updated_at DESC, id DESC)
  WHERE visibility = 'team' AND version_count > 1;
CREATE INDEX prompts_owner_current_behind_idx ON prompts (owner_user_id) WHERE current_behind;

ANALYZE prompts;
