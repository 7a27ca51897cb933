-- Turn deadlines for play between sessions (see docs/architecture.md,
-- "Turn deadlines"). A GM gives an encounter a deadline: how long the table
-- may wait on a player, when to remind them, and what applies when it runs
-- out.
CREATE TABLE encounter_deadlines (
    encounter_id  uuid     PRIMARY KEY REFERENCES encounters (id) ON DELETE CASCADE,
    after_secs    integer  NOT NULL CHECK (after_secs BETWEEN 60 AND 2592000),
    remind_secs   integer  NOT NULL CHECK (remind_secs >= 0 AND remind_secs < after_secs),
    fallback      text     NOT NULL CHECK (fallback IN ('default', 'next-turn', 'pause')),
    set_by        uuid     REFERENCES users (id) ON DELETE SET NULL,
    set_at        timestamptz NOT NULL DEFAULT now()
);

-- One row per wait: the encounter standing at event seq since created_at.
-- A worker on any instance claims due rows FOR UPDATE SKIP LOCKED; applying
-- a fallback leases the row (lease_until) and uses command ids derived from
-- the row's id, so a crash between applying and done_at repeats nothing.
CREATE TABLE deadlines (
    id           bigserial   PRIMARY KEY,
    encounter_id uuid        NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    seq          bigint      NOT NULL,
    due_at       timestamptz NOT NULL,
    remind_at    timestamptz NOT NULL,
    reminded_at  timestamptz,
    lease_until  timestamptz,
    attempts     integer     NOT NULL DEFAULT 0,
    done_at      timestamptz,
    outcome      text,
    UNIQUE (encounter_id, seq)
);

CREATE INDEX deadlines_due_idx ON deadlines (due_at) WHERE done_at IS NULL;
CREATE INDEX deadlines_remind_idx ON deadlines (remind_at) WHERE done_at IS NULL AND reminded_at IS NULL;
