-- The streak reads the kept per-day counts (decision 0272). It walked back from today one day at a
-- time with three index probes a day (prompts, versions and conversations created that day): for
-- someone active every day, up to 1,200 probes, the dashboard's slowest statement. The per-day
-- counts already say which days a person was active, but only the last 15 were kept. Older days
-- are now kept per person and day, whatever the space, for as long as a streak looks back
-- (400 days): at most one row per person and day. The rows of no person (versions written through
-- an API key) are still dropped with the days no window reaches.
--
-- Older days are folded into the space of all spaces, the uuid of all ones, which no team has: no
-- team dashboard reads it, and the personal windows never reach such old days.
DROP FUNCTION dashboard_days_fold(date);

CREATE FUNCTION dashboard_days_fold(keep_from date, people_from date) RETURNS integer LANGUAGE sql AS $$
  WITH expired AS (
    DELETE FROM dashboard_days WHERE day < people_from OR (day < keep_from AND user_id IS NULL) RETURNING 1
  ), gone AS (
    DELETE FROM dashboard_days d USING (
      SELECT CASE WHEN day >= keep_from THEN space_id ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid END AS space_id,
        user_id, day
      FROM dashboard_days
      WHERE day >= people_from AND (day >= keep_from OR user_id IS NOT NULL)
      GROUP BY 1, 2, 3 HAVING count(*) > 1) many
    WHERE d.day = many.day AND d.user_id IS NOT DISTINCT FROM many.user_id
      AND CASE WHEN d.day >= keep_from THEN d.space_id ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid END = many.space_id
    RETURNING many.space_id, d.user_id, d.day, d.prompts, d.versions, d.revisions, d.conversations
  ), folded AS (
    INSERT INTO dashboard_days (space_id, user_id, day, prompts, versions, revisions, conversations)
    SELECT space_id, user_id, day, sum(prompts), sum(versions), sum(revisions), sum(conversations)
    FROM gone GROUP BY 1, 2, 3
    HAVING sum(prompts) <> 0 OR sum(versions) <> 0 OR sum(revisions) <> 0 OR sum(conversations) <> 0
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM expired)::int + (SELECT count(*) FROM gone)::int - (SELECT count(*) FROM folded)::int
$$;

-- The days the old fold dropped, counted again from the rows; the next fold compacts them.
SELECT dashboard_days_recount();
ANALYZE dashboard_days;
