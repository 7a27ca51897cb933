-- Snapshots of encounter states along their history, so that the state after
-- any event can be rebuilt from the nearest snapshot at or before it plus the
-- events since (see store.SnapshotEvery). state is the whole state (JSON)
-- right after event seq. Written in the same transaction as the events.
CREATE TABLE snapshots (
    encounter_id uuid   NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    seq          bigint NOT NULL CHECK (seq > 0),
    state        jsonb  NOT NULL,
    PRIMARY KEY (encounter_id, seq)
);

-- Encounters played before snapshots existed get one at their current seq.
INSERT INTO snapshots (encounter_id, seq, state)
SELECT id, seq, state FROM encounters WHERE seq > 0;

-- The few event kinds history pages look up across a whole log: rewinds
-- (which events were undone), reveals, and who fell.
CREATE INDEX events_history_kind_idx ON events (encounter_id, kind, seq)
    WHERE kind IN ('encounter-rewound', 'event-revealed', 'combatant-out');
