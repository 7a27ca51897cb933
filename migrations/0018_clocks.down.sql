DROP TABLE server_keys;
DROP TABLE held_answers;
DROP TABLE standing_orders;
DROP TABLE clock_banks;
DROP INDEX deadlines_uncharged_idx;
ALTER TABLE deadlines DROP COLUMN started_at, DROP COLUMN waited, DROP COLUMN charged;
DELETE FROM encounter_deadlines WHERE after_secs IS NULL;
ALTER TABLE encounter_deadlines
    DROP CONSTRAINT encounter_deadlines_kind_check,
    DROP COLUMN bank_secs, DROP COLUMN increment_secs, DROP COLUMN running, DROP COLUMN turn_key,
    ALTER COLUMN after_secs SET NOT NULL,
    ADD CONSTRAINT encounter_deadlines_after_secs_check CHECK (after_secs BETWEEN 60 AND 2592000),
    ADD CONSTRAINT encounter_deadlines_remind_secs_check CHECK (remind_secs >= 0 AND remind_secs < after_secs);
