-- The row trigger of migration 0264 asked "does a newer version exist?" with EXISTS over a join. On
-- tables without statistics (a fresh database, autovacuum off or behind) the planner expects many
-- matches and picks a sequential scan of every version for the inner side, stopping at the first
-- match; when the current version is the newest there is no match, so each updated prompt read the
-- whole table (one UPDATE of 50,000 current versions over 500,000 versions: over 90 s instead of
-- 2 s). The same figure from two lookups the planner serves from an index whatever its statistics:
-- the newest version number (the backward end of the unique (prompt_id, version_number) index) and
-- the current version's number (its primary key).
CREATE OR REPLACE FUNCTION prompts_current_behind() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- No current version, or one deleted by this statement (its row is gone): not behind.
  NEW.current_behind := coalesce(
    (SELECT max(w.version_number) FROM prompt_versions w WHERE w.prompt_id = NEW.id)
      > (SELECT cv.version_number FROM prompt_versions cv WHERE cv.id = NEW.current_version_id),
    false);
  RETURN NEW;
END
$$;
