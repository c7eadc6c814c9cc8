-- The global admin area.

-- The user list searches email addresses by any part ('ILIKE %x%') over 100k accounts.
CREATE INDEX users_email_trgm_idx ON users USING gin (email gin_trgm_ops);
-- Its pages: newest first, keyset on (created_at, id).
CREATE INDEX users_created_id_idx ON users (created_at DESC, id DESC);
-- Active users (30 days): sign-ins and writes in a time window, over everyone.
CREATE INDEX sessions_created_at_idx ON sessions (created_at);
CREATE INDEX prompt_versions_created_at_idx ON prompt_versions (created_at);
CREATE INDEX conversation_messages_created_at_idx ON conversation_messages (created_at);
-- The outbox backlog on the health tab.
CREATE INDEX mail_outbox_status_created_idx ON mail_outbox (status, created_at);

-- The build reports the server made (/build-status): a new one only when the counts change, the
-- newest 10 kept.
CREATE TABLE build_reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  version text NOT NULL,
  commit text,
  overall_status text NOT NULL CHECK (overall_status IN ('healthy', 'warning', 'critical')),
  total integer NOT NULL,
  completed integer NOT NULL,
  partial integer NOT NULL,
  missing integer NOT NULL,
  high_priority_missing integer NOT NULL,
  report jsonb NOT NULL
);
CREATE INDEX build_reports_created_idx ON build_reports (created_at DESC, id DESC);
