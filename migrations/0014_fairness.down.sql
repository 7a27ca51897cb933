DROP TABLE dice_secrets;
ALTER TABLE events
    DROP CONSTRAINT events_chained_whole,
    DROP COLUMN link,
    DROP COLUMN digest,
    DROP COLUMN salt;
