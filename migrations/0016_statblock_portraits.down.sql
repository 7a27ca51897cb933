ALTER TABLE characters DROP COLUMN portrait;
ALTER TABLE bestiary DROP COLUMN portrait;
