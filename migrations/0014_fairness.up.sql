-- Fairness anyone can check (docs/protocol.md, "Checking a history").
--
-- The hash chain: every event keeps its salt (16 random bytes), its digest
-- (SHA-256 of the salt and the event's canonical JSON) and its link
-- (SHA-256 of the previous link, its seq and its digest). Appends write all
-- three with the event. Events logged before this migration have none: the
-- server chains an encounter's log, in seq order, the first time it loads,
-- exports or appends to it (store.ChainLog), since the canonical form
-- cannot be computed in SQL.
ALTER TABLE events
    ADD COLUMN salt   bytea CHECK (length(salt) = 16),
    ADD COLUMN digest bytea CHECK (length(digest) = 32),
    ADD COLUMN link   bytea CHECK (length(link) = 32),
    ADD CONSTRAINT events_chained_whole CHECK ((salt IS NULL) = (digest IS NULL) AND (digest IS NULL) = (link IS NULL));

-- Provable dice: each encounter's server-side secret, from which the seed
-- of every epoch is derived (dice.Seed.Epoch). Only a seed's SHA-256 is
-- published before the encounter ends, then the seed; the secret itself
-- never leaves the server. Kept apart from the encounter's row so that
-- nothing that reads encounters can carry it out by accident.
CREATE TABLE dice_secrets (
    encounter_id uuid        PRIMARY KEY REFERENCES encounters (id) ON DELETE CASCADE,
    secret       bytea       NOT NULL CHECK (length(secret) = 32),
    created_at   timestamptz NOT NULL DEFAULT now()
);
