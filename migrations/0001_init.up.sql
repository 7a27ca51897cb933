-- Campaigns group encounters.
CREATE TABLE campaigns (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name       text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- An encounter is a snapshot (state at seq) plus its append-only event log.
-- seq is the seq of the last event applied to state; it is the optimistic
-- concurrency token of every append. fillfactor leaves room for HOT updates
-- of the snapshot, which changes on every command.
CREATE TABLE encounters (
    id            uuid        PRIMARY KEY,
    campaign_id   uuid        NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    name          text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    ruleset       text        NOT NULL,
    status        text        NOT NULL,
    seq           bigint      NOT NULL DEFAULT 0 CHECK (seq >= 0),
    setup         jsonb       NOT NULL,
    initial_state jsonb       NOT NULL,
    state         jsonb       NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
) WITH (fillfactor = 70);

CREATE INDEX encounters_campaign_created_idx ON encounters (campaign_id, created_at DESC);

-- The event log: gapless seq per encounter, starting at 1. body is the whole
-- engine.Event as JSON; the other columns are copies for querying.
CREATE TABLE events (
    encounter_id uuid        NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    seq          bigint      NOT NULL CHECK (seq > 0),
    kind         text        NOT NULL,
    actor        text,
    round        int         NOT NULL,
    body         jsonb       NOT NULL,
    command_id   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (encounter_id, seq)
);

-- Client command ids already applied, for idempotent resends: seq is the
-- encounter's seq after the command's events.
CREATE TABLE commands (
    encounter_id uuid        NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    command_id   text        NOT NULL CHECK (length(command_id) BETWEEN 1 AND 200),
    seq          bigint      NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (encounter_id, command_id)
);
