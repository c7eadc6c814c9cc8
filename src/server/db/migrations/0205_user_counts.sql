-- The admin user list's totals (decision 0205: lists must not slow down as the tables grow): counting the users table on
-- every page costs a scan of every account (7 ms at 10k accounts, over 100 ms at 1M). The totals
-- are kept in one row instead, by statement triggers on users, in the same transaction as the
-- change: a sign-up, a deletion (the tombstone's deleted_at) or a change of the global role.
CREATE TABLE user_counts (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  users bigint NOT NULL,
  admins bigint NOT NULL
);
INSERT INTO user_counts (id, users, admins)
SELECT 1, count(*) FILTER (WHERE deleted_at IS NULL),
  count(*) FILTER (WHERE deleted_at IS NULL AND role = 'global_admin')
FROM users;

-- Adds what the statement's new rows count and takes away what its old rows counted; the row is
-- written (and locked) only when the totals change, not on every update of an account.
CREATE FUNCTION user_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  users_delta bigint := 0;
  admins_delta bigint := 0;
  counted_users bigint;
  counted_admins bigint;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT count(*) FILTER (WHERE deleted_at IS NULL),
      count(*) FILTER (WHERE deleted_at IS NULL AND role = 'global_admin')
    INTO counted_users, counted_admins FROM new_rows;
    users_delta := users_delta + counted_users;
    admins_delta := admins_delta + counted_admins;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT count(*) FILTER (WHERE deleted_at IS NULL),
      count(*) FILTER (WHERE deleted_at IS NULL AND role = 'global_admin')
    INTO counted_users, counted_admins FROM old_rows;
    users_delta := users_delta - counted_users;
    admins_delta := admins_delta - counted_admins;
  END IF;
  IF users_delta <> 0 OR admins_delta <> 0 THEN
    UPDATE user_counts SET users = users + users_delta, admins = admins + admins_delta WHERE id = 1;
  END IF;
  RETURN NULL;
END
$$;
-- PostgreSQL allows transition tables only on triggers of one event each.
CREATE TRIGGER user_counts_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();
CREATE TRIGGER user_counts_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();
CREATE TRIGGER user_counts_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();
