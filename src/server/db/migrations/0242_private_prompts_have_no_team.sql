-- A prompt's visibility alone says which space it is in (decision 0242): a private prompt belongs
-- to its owner and to no team. A team id left on a private prompt meant nothing to who may see it,
-- but counted it against the team's plan, and deleting the team deleted the owner's prompt with it.
-- The services never wrote one; rows written otherwise lose it here, and the database refuses it.
UPDATE prompts SET team_id = NULL WHERE visibility = 'private' AND team_id IS NOT NULL;
ALTER TABLE prompts ADD CONSTRAINT prompts_private_without_team CHECK (visibility = 'team' OR team_id IS NULL);
