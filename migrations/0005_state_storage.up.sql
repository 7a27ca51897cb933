-- The live snapshot is rewritten on every command; compressing it cost more
-- CPU than the disk it saved. Keep it out of line, uncompressed.
ALTER TABLE encounters ALTER COLUMN state SET STORAGE EXTERNAL;
