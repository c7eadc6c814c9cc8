-- Webhooks: endpoints per space, a durable delivery queue written in the transaction of
-- the change that causes an event, and a log of every delivery attempt.

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Exactly one space: a user's personal space, or a team's.
  owner_user_id text REFERENCES users (id) ON DELETE CASCADE,
  team_id uuid REFERENCES teams (id) ON DELETE CASCADE,
  url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  events text[] NOT NULL CHECK (cardinality(events) >= 1),
  enabled boolean NOT NULL DEFAULT true,
  -- Why it was turned off by the system ('failing'); null when a person paused it or it runs.
  disabled_reason text CHECK (disabled_reason IN ('failing')),
  -- The signing secret (whsec_ + base64 of 32 random bytes); kept so that it can be shown again.
  secret text NOT NULL CHECK (secret LIKE 'whsec_%'),
  -- After a rotation the old secret also signs until previous_secret_expires_at (24 hours).
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- The first failed attempt since the last success; an endpoint failing for days is disabled.
  failing_since timestamptz,
  created_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((owner_user_id IS NULL) <> (team_id IS NULL))
);
CREATE INDEX webhook_endpoints_owner_idx ON webhook_endpoints (owner_user_id, created_at DESC, id DESC) WHERE owner_user_id IS NOT NULL;
CREATE INDEX webhook_endpoints_team_idx ON webhook_endpoints (team_id, created_at DESC, id DESC) WHERE team_id IS NOT NULL;

-- One row per event and subscribed endpoint: the queue (status 'pending', due at next_attempt_at,
-- claimed with FOR UPDATE SKIP LOCKED) and, once done, the delivery's record.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  -- The event's id (webhook-id), the same on every attempt and redelivery.
  event_id text NOT NULL,
  event_type text NOT NULL,
  -- The JSON body that is sent, exactly.
  payload text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  finished_at timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);

-- Every attempt: when, the answer's status (null when none came), how long, what went wrong.
CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  status_code integer,
  duration_ms integer NOT NULL,
  error text,
  response_excerpt text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt DESC);
