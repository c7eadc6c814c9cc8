-- The runtime fetch is answered from each app process's memory (decision 0254). Every write that
-- can change such an answer tells every process, on the channel `promptfolio_cache`, in the
-- writing transaction: NOTIFY is delivered only when that transaction commits, and not at all when
-- it rolls back. Triggers send it, so no write path (the API, the Langfuse door, imports, moves
-- between spaces, deletes of accounts and teams and what they cascade to) can forget it.
--
-- Payloads: `p|<space>|<name>` one prompt of a space changed; `s|<space>` many of them did (one
-- statement that touched more than 100 names); `k|<key id>` an API key changed or went;
-- `a|<space>` the plan of a space changed. A space is `user:<id>` or `team:<id>`, as plan
-- subjects are keyed.

CREATE FUNCTION promptfolio_cache_space(visibility text, owner_user_id text, team_id uuid) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN visibility = 'team' THEN 'team:' || team_id::text ELSE 'user:' || owner_user_id END
$$;

-- `entries`: `<space>|<name>` of the prompts one statement touched.
CREATE FUNCTION promptfolio_cache_send(entries text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(entries) > 100 THEN
    PERFORM pg_notify('promptfolio_cache', 's|' || s)
      FROM (SELECT DISTINCT split_part(e, '|', 1) AS s FROM unnest(entries) e) spaces;
  ELSE
    PERFORM pg_notify('promptfolio_cache', 'p|' || e) FROM (SELECT DISTINCT e FROM unnest(entries) e) names;
  END IF;
END $$;

CREATE FUNCTION promptfolio_cache_prompts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- PL/pgSQL plans a statement when it first runs it, so each branch names only the transition
  -- tables its trigger has.
  IF TG_OP <> 'DELETE' THEN
    PERFORM promptfolio_cache_send(ARRAY(
      SELECT promptfolio_cache_space(visibility, owner_user_id, team_id) || '|' || name FROM new_rows));
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM promptfolio_cache_send(ARRAY(
      SELECT promptfolio_cache_space(visibility, owner_user_id, team_id) || '|' || name FROM old_rows));
  END IF;
  RETURN NULL;
END $$;

-- Versions and labels name their prompt; a prompt deleted with them was announced by its own trigger.
CREATE FUNCTION promptfolio_cache_prompt_parts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM promptfolio_cache_send(ARRAY(
      SELECT promptfolio_cache_space(p.visibility, p.owner_user_id, p.team_id) || '|' || p.name
      FROM prompts p WHERE p.id IN (SELECT prompt_id FROM new_rows)));
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM promptfolio_cache_send(ARRAY(
      SELECT promptfolio_cache_space(p.visibility, p.owner_user_id, p.team_id) || '|' || p.name
      FROM prompts p WHERE p.id IN (SELECT prompt_id FROM old_rows)));
  END IF;
  RETURN NULL;
END $$;

-- A transition table serves one event per trigger, hence three of each.
CREATE TRIGGER prompts_cache_insert AFTER INSERT ON prompts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_prompts_changed();
CREATE TRIGGER prompts_cache_update AFTER UPDATE ON prompts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_prompts_changed();
CREATE TRIGGER prompts_cache_delete AFTER DELETE ON prompts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_prompts_changed();

CREATE TRIGGER prompt_versions_cache_insert AFTER INSERT ON prompt_versions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_prompt_parts_changed();
CREATE TRIGGER prompt_versions_cache_update AFTER UPDATE ON prompt_versions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_prompt_parts_changed();
CREATE TRIGGER prompt_versions_cache_delete AFTER DELETE ON prompt_versions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_prompt_parts_changed();

CREATE TRIGGER prompt_labels_cache_insert AFTER INSERT ON prompt_labels REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_prompt_parts_changed();
CREATE TRIGGER prompt_labels_cache_update AFTER UPDATE ON prompt_labels REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_prompt_parts_changed();
CREATE TRIGGER prompt_labels_cache_delete AFTER DELETE ON prompt_labels REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION promptfolio_cache_prompt_parts_changed();

-- A key: revoked, deleted (with its account or team), or anything it is checked by changed. Its
-- use (last_used_at, the rate window), written once a second per key and process, is not such a
-- change and sends nothing.
CREATE FUNCTION promptfolio_cache_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('promptfolio_cache', 'k|' || OLD.id::text);
  RETURN NULL;
END $$;
CREATE TRIGGER api_keys_cache_update
  AFTER UPDATE OF revoked_at, secret_hash, public_key, scope, owner_user_id, team_id, created_by_user_id ON api_keys
  FOR EACH ROW EXECUTE FUNCTION promptfolio_cache_key_changed();
CREATE TRIGGER api_keys_cache_delete AFTER DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION promptfolio_cache_key_changed();

-- A plan decides whether a space's keys may call the API. A subject's row made on first use
-- (plan still unset) changes nothing the keys are checked by.
CREATE FUNCTION promptfolio_cache_plan_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('promptfolio_cache', 'a|' || OLD.subject_key);
  RETURN NULL;
END $$;
CREATE TRIGGER plan_subjects_cache_update AFTER UPDATE OF plan ON plan_subjects
  FOR EACH ROW EXECUTE FUNCTION promptfolio_cache_plan_changed();
CREATE TRIGGER plan_subjects_cache_delete AFTER DELETE ON plan_subjects
  FOR EACH ROW EXECUTE FUNCTION promptfolio_cache_plan_changed();
