-- The runtime cache's notifications (migration 0254) go on a channel of the schema that holds the
-- tables: NOTIFY channels belong to the whole database, so installations (and test runs) that share
-- one PostgreSQL database in separate schemas would otherwise drop each other's kept answers, and
-- keep none while the other is busy. The default schema keeps the channel `promptfolio_cache`; a
-- channel name is at most 63 bytes, hence a digest of any other schema's name.

CREATE FUNCTION promptfolio_cache_channel(schema_name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN schema_name = 'public' THEN 'promptfolio_cache'
    ELSE 'promptfolio_cache_' || left(md5(schema_name), 16) END
$$;

DROP FUNCTION promptfolio_cache_send(text[]);

-- `entries`: `<space>|<name>` of the prompts one statement touched.
CREATE FUNCTION promptfolio_cache_send(channel text, entries text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(entries) > 100 THEN
    PERFORM pg_notify(channel, 's|' || s)
      FROM (SELECT DISTINCT split_part(e, '|', 1) AS s FROM unnest(entries) e) spaces;
  ELSE
    PERFORM pg_notify(channel, 'p|' || e) FROM (SELECT DISTINCT e FROM unnest(entries) e) names;
  END IF;
END $$;

CREATE OR REPLACE FUNCTION promptfolio_cache_prompts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- PL/pgSQL plans a statement when it first runs it, so each branch names only the transition
  -- tables its trigger has.
  IF TG_OP <> 'DELETE' THEN
    PERFORM promptfolio_cache_send(promptfolio_cache_channel(TG_TABLE_SCHEMA), ARRAY(
      SELECT promptfolio_cache_space(visibility, owner_user_id, team_id) || '|' || name FROM new_rows));
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM promptfolio_cache_send(promptfolio_cache_channel(TG_TABLE_SCHEMA), ARRAY(
      SELECT promptfolio_cache_space(visibility, owner_user_id, team_id) || '|' || name FROM old_rows));
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION promptfolio_cache_prompt_parts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM promptfolio_cache_send(promptfolio_cache_channel(TG_TABLE_SCHEMA), ARRAY(
      SELECT promptfolio_cache_space(p.visibility, p.owner_user_id, p.team_id) || '|' || p.name
      FROM prompts p WHERE p.id IN (SELECT prompt_id FROM new_rows)));
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM promptfolio_cache_send(promptfolio_cache_channel(TG_TABLE_SCHEMA), ARRAY(
      SELECT promptfolio_cache_space(p.visibility, p.owner_user_id, p.team_id) || '|' || p.name
      FROM prompts p WHERE p.id IN (SELECT prompt_id FROM old_rows)));
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION promptfolio_cache_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(promptfolio_cache_channel(TG_TABLE_SCHEMA), 'k|' || OLD.id::text);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION promptfolio_cache_plan_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(promptfolio_cache_channel(TG_TABLE_SCHEMA), 'a|' || OLD.subject_key);
  RETURN NULL;
END $$;
