-- Password recovery sessions (review item 2): what an emailed reset link is traded for, once. The
-- browser holds the token in an HttpOnly cookie; the table keeps its SHA-256 only. A session sets
-- the password once, and any password change, completed reset or new link ends all of the account's.
-- (They used to live among better-auth's reset tokens, where one could be traded for the next.)
CREATE TABLE recovery_sessions (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recovery_sessions_user_idx ON recovery_sessions (user_id);
