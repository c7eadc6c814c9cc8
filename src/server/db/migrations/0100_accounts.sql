-- Failed sign-in attempts (password, emailed code, direct reset), counted for the admin area.
-- Never the password or the code: only who tried, how, why it failed, from where and when.
CREATE TABLE failed_sign_ins (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CHECK (email = lower(email)),
  user_id text REFERENCES users (id) ON DELETE SET NULL,
  method text NOT NULL CHECK (method IN ('password', 'code', 'direct_reset')),
  reason text NOT NULL,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX failed_sign_ins_created_at_idx ON failed_sign_ins (created_at DESC);
CREATE INDEX failed_sign_ins_email_idx ON failed_sign_ins (email, created_at DESC);

-- Admins look up the mail sent to one address on the email debug page.
CREATE INDEX mail_outbox_to_idx ON mail_outbox (to_address, created_at DESC);
