-- Commands only append (see docs/architecture.md, Persistence): a command's
-- transaction inserts its events and its command id, and the (encounter_id,
-- seq) key of events is its optimistic concurrency. The state is no longer
-- rewritten per command: the server keeps it in memory and writes it to
-- snapshots every store.SnapshotEvery events and when it unloads the
-- encounter; loading is the latest snapshot (or the initial state) plus the
-- events after it.
--
-- Every encounter's current state becomes a snapshot at its seq, then the
-- encounter row loses its copy of the state and its seq (the seq of its
-- last event is the encounter's).
INSERT INTO snapshots (encounter_id, seq, state)
SELECT id, seq, state FROM encounters WHERE seq > 0
ON CONFLICT (encounter_id, seq) DO NOTHING;

ALTER TABLE encounters DROP COLUMN state;
ALTER TABLE encounters DROP COLUMN seq;
-- The row now changes only when the status does: no room for HOT updates
-- of the state needed any more.
ALTER TABLE encounters SET (fillfactor = 100);
-- A snapshot is written every 100 events, never updated: keep it out of
-- line and uncompressed, as the live state was (0005).
ALTER TABLE snapshots ALTER COLUMN state SET STORAGE EXTERNAL;
