-- Secrets an installation generates for itself when none is configured (the auth secret). Kept in
-- the database, not in one process's DATA_DIR, so that every app process on one PostgreSQL signs
-- and checks sessions with the same key.
CREATE TABLE instance_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
