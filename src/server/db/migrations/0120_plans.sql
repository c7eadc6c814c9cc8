-- Plans: the plan a subject (a user's personal space, or a team) has chosen, and the
-- requests for paid plans that wait for the billing provider. The trial needs no row: it runs 14
-- days from the user's or the team's created_at. A subject's row is also the lock that every
-- gated write of that subject takes (SELECT ... FOR UPDATE), so writers at a limit take turns.
CREATE TABLE plan_subjects (
  -- 'user:<id>' or 'team:<id>': one key for both kinds, the target of the lazy insert.
  subject_key text PRIMARY KEY,
  user_id text REFERENCES users (id) ON DELETE CASCADE,
  team_id uuid REFERENCES teams (id) ON DELETE CASCADE,
  -- Null while nothing was chosen (trial, then payment_required).
  plan text CHECK (plan IN ('free', 'pro', 'team')),
  plan_set_at timestamptz,
  plan_set_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((user_id IS NULL) <> (team_id IS NULL)),
  CHECK (plan IS NULL OR (user_id IS NOT NULL AND plan IN ('free', 'pro'))
    OR (team_id IS NOT NULL AND plan IN ('free', 'team')))
);
CREATE UNIQUE INDEX plan_subjects_user_idx ON plan_subjects (user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX plan_subjects_team_idx ON plan_subjects (team_id) WHERE team_id IS NOT NULL;

CREATE TABLE plan_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subject_key text NOT NULL REFERENCES plan_subjects (subject_key) ON DELETE CASCADE,
  plan text NOT NULL CHECK (plan IN ('free', 'pro', 'team')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'granted', 'cancelled')),
  -- Which billing provider handles it ('manual': a global admin grants it) and its reference there.
  provider text NOT NULL,
  provider_ref text,
  requested_by_user_id text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by_user_id text REFERENCES users (id) ON DELETE SET NULL
);
-- At most one pending request per subject.
CREATE UNIQUE INDEX plan_requests_one_pending_idx ON plan_requests (subject_key) WHERE status = 'pending';
CREATE INDEX plan_requests_subject_idx ON plan_requests (subject_key, created_at DESC);
CREATE INDEX plan_requests_status_idx ON plan_requests (status, created_at DESC);
