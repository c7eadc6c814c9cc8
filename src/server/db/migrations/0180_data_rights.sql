-- Data rights: deleted accounts and data exports.
--
-- A deleted account keeps its users row as a tombstone without personal data (the address becomes
-- deleted-<id>@deleted.invalid, the name blank), so that what stays with a team (its prompts and
-- messages) and the audit trail keep a valid reference; deleted_at marks it (decision 0180).
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- An export of one user's data, built in the background and downloaded once. `archive` holds the
-- JSON document until it is downloaded.
CREATE TABLE data_exports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'running', 'ready', 'downloaded', 'failed')),
  done integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  archive text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  downloaded_at timestamptz
);
CREATE INDEX data_exports_user_idx ON data_exports (user_id, created_at DESC);
CREATE INDEX data_exports_open_idx ON data_exports (created_at) WHERE status IN ('pending', 'running');
