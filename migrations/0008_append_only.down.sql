-- Back to an encounter row holding its state at its seq: the latest
-- snapshot (or the initial state). A server that unloads an encounter
-- snapshots it, so after a clean shutdown that is the state after the last
-- event; for an encounter whose log goes further (its server was killed),
-- the older server refuses commands until the events after the snapshot are
-- removed or folded into it.
ALTER TABLE snapshots ALTER COLUMN state SET STORAGE EXTENDED;
ALTER TABLE encounters SET (fillfactor = 70);
ALTER TABLE encounters ADD COLUMN seq bigint NOT NULL DEFAULT 0 CHECK (seq >= 0);
ALTER TABLE encounters ADD COLUMN state jsonb;
UPDATE encounters e SET seq = s.seq, state = s.state
FROM (SELECT DISTINCT ON (encounter_id) encounter_id, seq, state FROM snapshots ORDER BY encounter_id, seq DESC) s
WHERE s.encounter_id = e.id;
UPDATE encounters SET state = initial_state WHERE state IS NULL;
ALTER TABLE encounters ALTER COLUMN state SET NOT NULL;
ALTER TABLE encounters ALTER COLUMN state SET STORAGE EXTERNAL;
