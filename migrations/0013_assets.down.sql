ALTER TABLE campaigns DROP COLUMN gm_notes;
DROP TABLE assets;
