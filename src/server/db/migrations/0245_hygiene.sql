-- The pruning job (src/server/jobs/prune.ts) finds expired rows by these.
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);
CREATE INDEX recovery_sessions_expires_at_idx ON recovery_sessions (expires_at);
CREATE INDEX verifications_expires_at_idx ON verifications (expires_at);
