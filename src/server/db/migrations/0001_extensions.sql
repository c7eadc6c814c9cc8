-- Trigram search on titles (prompts, conversations). Created in public so that every schema
-- (tests give each run its own) finds the operator classes through its search_path.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
