-- The admin user search of one or two characters reads its page from this index alone (decision
-- 0256): the matches' creation times and ids are in it, so finding the newest 21 of 4,000 matches
-- reads no account row but the page's. Without them, each match's row was read to sort by
-- creation (3,500 heap pages for a two-letter prefix at 1M accounts).
DROP INDEX users_email_prefix_idx;
CREATE INDEX users_email_prefix_idx ON users (email text_pattern_ops) INCLUDE (created_at, id)
  WHERE deleted_at IS NULL;
