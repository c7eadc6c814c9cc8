-- The secrets a queued mail carries (a sign-in code, the token of a reset or invitation link), so
-- that the outbox copy can be redacted once the mail is sent or logged (review item 7). Admins never
-- read them through the app, not even while the mail waits.
ALTER TABLE mail_outbox ADD COLUMN secrets text[] NOT NULL DEFAULT '{}';

-- Mail sent before this change: the same secrets, found by where the app put them.
UPDATE mail_outbox SET
  text_body = regexp_replace(text_body, '(^|\n)(\s*)\d{6}(\s*)(\n|$)', '\1\2[redacted]\3\4', 'g'),
  html_body = regexp_replace(html_body, '>\d{6}</p>', '>[redacted]</p>', 'g')
WHERE kind = 'login_code' AND status IN ('sent', 'logged');
UPDATE mail_outbox SET
  text_body = regexp_replace(text_body, 'token_hash=[A-Za-z0-9_-]+', 'token_hash=[redacted]', 'g'),
  html_body = regexp_replace(html_body, 'token_hash=[A-Za-z0-9_-]+', 'token_hash=[redacted]', 'g')
WHERE kind = 'password_reset' AND status IN ('sent', 'logged');
UPDATE mail_outbox SET
  text_body = regexp_replace(text_body, '/invite/[A-Za-z0-9_-]+', '/invite/[redacted]', 'g'),
  html_body = regexp_replace(html_body, '/invite/[A-Za-z0-9_-]+', '/invite/[redacted]', 'g')
WHERE kind = 'team_invitation' AND status IN ('sent', 'logged');
