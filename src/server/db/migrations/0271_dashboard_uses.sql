-- The dashboard's "most used" prompts (decision 0276): the context's prompts by how often they are
-- attached to conversation messages, all time. Counting them joined the context's prompts with the
-- attachments: every attachment of the installation, each probing its prompt, or for a team every
-- team prompt hashed; either way the cost grew with other people's data. The uses are kept per
-- prompt instead, with the prompt's space and owner, by triggers in the writing transaction, as
-- rows of changes that are only added (as `dashboard_counts` and `dashboard_days`, decisions 0258
-- and 0268) and folded with the hourly pruning. The personal dashboard reads the caller's rows
-- (the prompts they own, in any space), the team dashboard its space's rows (its shared prompts):
-- one index range each, the size of the context's used prompts.
--
-- A space is as in `dashboard_days`: a team's id for its shared prompts, the nil uuid for the
-- private ones (`dashboard_space`). The person is the prompt's owner.
CREATE TABLE dashboard_uses (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  space_id uuid NOT NULL,
  user_id text NOT NULL,
  prompt_id uuid NOT NULL,
  uses integer NOT NULL
);
CREATE INDEX dashboard_uses_user_idx ON dashboard_uses (user_id, prompt_id);
CREATE INDEX dashboard_uses_space_idx ON dashboard_uses (space_id, prompt_id);

-- Counts every prompt's uses again from the attachments: here, and after a bulk load that ran
-- without triggers.
CREATE FUNCTION dashboard_uses_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM dashboard_uses;
  INSERT INTO dashboard_uses (space_id, user_id, prompt_id, uses)
  SELECT dashboard_space(p.visibility, p.team_id), p.owner_user_id, p.id, count(*)
  FROM conversation_message_prompts a JOIN prompts p ON p.id = a.prompt_id GROUP BY p.id;
$$;
SELECT dashboard_uses_recount();

-- Attachments added or removed (a message or conversation deleted takes its attachments with it),
-- counted where their prompt is; attachments whose prompt is gone were taken away with it. The
-- foreign key's check has key-share locked each prompt before this runs, so a move of the prompt
-- waits for this transaction (below). PL/pgSQL plans a statement when it first runs it, so each
-- branch names only the transition table its trigger has.
CREATE FUNCTION dashboard_uses_attachments_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_uses (space_id, user_id, prompt_id, uses)
    SELECT dashboard_space(p.visibility, p.team_id), p.owner_user_id, p.id, count(*)
    FROM new_rows a JOIN prompts p ON p.id = a.prompt_id GROUP BY p.id;
  ELSE
    INSERT INTO dashboard_uses (space_id, user_id, prompt_id, uses)
    SELECT dashboard_space(p.visibility, p.team_id), p.owner_user_id, p.id, -count(*)
    FROM old_rows a JOIN prompts p ON p.id = a.prompt_id GROUP BY p.id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_uses_attachments_insert AFTER INSERT ON conversation_message_prompts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_uses_attachments_changed();
CREATE TRIGGER dashboard_uses_attachments_delete AFTER DELETE ON conversation_message_prompts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_uses_attachments_changed();

-- An attachment pointed at another prompt (the app never does): one use leaves the old prompt and
-- joins the new one.
CREATE FUNCTION dashboard_uses_attachment_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_uses (space_id, user_id, prompt_id, uses)
  SELECT dashboard_space(p.visibility, p.team_id), p.owner_user_id, p.id, -1 FROM prompts p WHERE p.id = OLD.prompt_id
  UNION ALL
  SELECT dashboard_space(p.visibility, p.team_id), p.owner_user_id, p.id, 1 FROM prompts p WHERE p.id = NEW.prompt_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_uses_attachment_move AFTER UPDATE OF prompt_id ON conversation_message_prompts
  FOR EACH ROW WHEN (OLD.prompt_id IS DISTINCT FROM NEW.prompt_id)
  EXECUTE FUNCTION dashboard_uses_attachment_moved();

-- A deleted prompt takes its uses away before the cascade removes its attachments (whose own
-- trigger then finds no prompt and counts nothing twice). The row is locked by now: attachments
-- being added to it have committed, and are counted here.
CREATE FUNCTION dashboard_uses_prompt_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO dashboard_uses (space_id, user_id, prompt_id, uses)
  SELECT dashboard_space(OLD.visibility, OLD.team_id), OLD.owner_user_id, OLD.id, -count(*)
  FROM conversation_message_prompts a WHERE a.prompt_id = OLD.id HAVING count(*) > 0;
  RETURN OLD;
END
$$;
CREATE TRIGGER dashboard_uses_prompt_delete BEFORE DELETE ON prompts
  FOR EACH ROW EXECUTE FUNCTION dashboard_uses_prompt_deleted();

-- A prompt moved to another space or owner: its uses leave the old place and join the new one.
-- Locking the row for update first waits for every transaction still adding an attachment to it
-- (each holds a key-share lock until it commits): their uses, counted in the old place by their
-- own trigger, are then among those moved here; an attachment added after the move waits for its
-- commit and is counted in the new place.
CREATE FUNCTION dashboard_uses_prompt_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM prompts WHERE id = NEW.id FOR UPDATE;
  INSERT INTO dashboard_uses (space_id, user_id, prompt_id, uses)
  SELECT moved.space_id, moved.user_id, NEW.id, moved.sign * used.n
  FROM (SELECT count(*)::int AS n FROM conversation_message_prompts a WHERE a.prompt_id = NEW.id) used,
    (VALUES (dashboard_space(OLD.visibility, OLD.team_id), OLD.owner_user_id, -1),
            (dashboard_space(NEW.visibility, NEW.team_id), NEW.owner_user_id, 1)) moved (space_id, user_id, sign)
  WHERE used.n > 0;
  RETURN NULL;
END
$$;
CREATE TRIGGER dashboard_uses_prompt_move AFTER UPDATE OF owner_user_id, team_id, visibility ON prompts
  FOR EACH ROW
  WHEN (OLD.owner_user_id IS DISTINCT FROM NEW.owner_user_id
    OR dashboard_space(OLD.visibility, OLD.team_id) IS DISTINCT FROM dashboard_space(NEW.visibility, NEW.team_id))
  EXECUTE FUNCTION dashboard_uses_prompt_moved();

-- Folds the rows of each space, person and prompt that has more than one into one, and drops those
-- that add up to nothing (a deleted prompt's, a moved prompt's old place); answers how many rows
-- went. Processes folding at once are safe: a row another one deleted meanwhile is skipped, and
-- rows added meanwhile stay for the next fold.
CREATE FUNCTION dashboard_uses_fold() RETURNS integer LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM dashboard_uses d USING (
      SELECT space_id, user_id, prompt_id FROM dashboard_uses
      GROUP BY 1, 2, 3 HAVING count(*) > 1 OR sum(uses) = 0) many
    WHERE d.space_id = many.space_id AND d.user_id = many.user_id AND d.prompt_id = many.prompt_id
    RETURNING d.space_id, d.user_id, d.prompt_id, d.uses
  ), folded AS (
    INSERT INTO dashboard_uses (space_id, user_id, prompt_id, uses)
    SELECT space_id, user_id, prompt_id, sum(uses) FROM gone GROUP BY 1, 2, 3 HAVING sum(uses) <> 0
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone)::int - (SELECT count(*) FROM folded)::int
$$;

ANALYZE dashboard_uses;
