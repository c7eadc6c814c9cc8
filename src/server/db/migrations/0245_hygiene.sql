-- The pruning job (src/server/jobs/prune.ts) finds expired rows by these.
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);
CREATE INDEX recovery_sessions_expires_at_idx ON recovery_sessions (expires_at);
CREATE INDEX verifications_expires_at_idx ON verifications (expires_at);

-- Mail secrets (codes, link tokens) are now sealed in the outbox (src/server/mail/sealing.ts).
-- Failed mail queued before holds them in plain text: they are replaced by [redacted] there, as
-- in sent mail. (Mail still waiting goes out as it was queued, and is redacted then.)
DO $$
DECLARE
  mail record;
  secret text;
BEGIN
  FOR mail IN SELECT id, secrets FROM mail_outbox WHERE status = 'failed' AND cardinality(secrets) > 0 LOOP
    FOREACH secret IN ARRAY mail.secrets LOOP
      IF secret <> '' THEN
        UPDATE mail_outbox SET
          subject = replace(subject, secret, '[redacted]'),
          text_body = replace(text_body, secret, '[redacted]'),
          html_body = replace(html_body, secret, '[redacted]')
        WHERE id = mail.id;
      END IF;
    END LOOP;
    UPDATE mail_outbox SET secrets = '{}' WHERE id = mail.id;
  END LOOP;
END $$;
