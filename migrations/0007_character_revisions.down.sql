DROP TABLE carry_overs;
DROP TABLE character_revisions;
ALTER TABLE characters DROP COLUMN revision;
