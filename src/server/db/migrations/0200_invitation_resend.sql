-- Resending an invitation issues a new token and a new 7-day validity; sent_at records when the
-- current link went out (created_at stays the first invitation's time).
ALTER TABLE invitations ADD COLUMN sent_at timestamptz NOT NULL DEFAULT now();
