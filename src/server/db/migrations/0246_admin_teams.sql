-- The global admin's list of every team (decision 0246): pages newest first, a search over the
-- name, and per row its members, admins, prompts and conversations, at 1M teams.

-- Its pages: newest first, keyset on (created_at, id).
CREATE INDEX teams_created_id_idx ON teams (created_at DESC, id DESC);
-- Its search: any part of the name, case-insensitive (`lower(name) LIKE lower(pattern)`).
CREATE INDEX teams_name_trgm_idx ON teams USING gin (lower(name) gin_trgm_ops);
-- A row's admins, without reading its other members. Members, team prompts and team
-- conversations are counted from the indexes that already serve them (team_members' primary key,
-- prompts_team_created_idx, conversations_team_created_idx).
CREATE INDEX team_members_admins_idx ON team_members (team_id, created_at, user_id) WHERE role = 'admin';

-- The number of teams, kept like user_counts (0205): counting the table on every page (and on the
-- stats cards every 15 s) would read every team.
CREATE TABLE team_counts (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  teams bigint NOT NULL
);
INSERT INTO team_counts (id, teams) SELECT 1, count(*) FROM teams;

CREATE FUNCTION team_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_rows;
  ELSE
    SELECT -count(*) INTO delta FROM old_rows;
  END IF;
  IF delta <> 0 THEN
    UPDATE team_counts SET teams = teams + delta WHERE id = 1;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER team_counts_insert AFTER INSERT ON teams
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION team_counts_apply();
CREATE TRIGGER team_counts_delete AFTER DELETE ON teams
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION team_counts_apply();
