-- The admin user search of one or two characters (decision 0256): the trigram index finds nothing
-- shorter than three characters, so such a search read every account (0.3 s at 1M). It matches the
-- start of the address instead, served by this btree; text_pattern_ops serves LIKE 'ab%' whatever
-- the database's collation. Addresses are stored in lower case.
CREATE INDEX users_email_prefix_idx ON users (email text_pattern_ops) WHERE deleted_at IS NULL;
