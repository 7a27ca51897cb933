-- A table that cannot stall (docs/architecture.md, "Clocks, standing
-- orders and links").

-- Clocks: an encounter's turn deadline may be a clock instead of a fixed
-- wait — each player character's time bank (bank_secs), plus
-- increment_secs at each of its turns — and may be switched off (live
-- play) and on again without losing a bank. turn_key names the turn the
-- last increment was for.
ALTER TABLE encounter_deadlines
    ALTER COLUMN after_secs DROP NOT NULL,
    DROP CONSTRAINT IF EXISTS encounter_deadlines_after_secs_check,
    DROP CONSTRAINT IF EXISTS encounter_deadlines_remind_secs_check,
    DROP CONSTRAINT IF EXISTS encounter_deadlines_check,
    ADD COLUMN bank_secs      integer CHECK (bank_secs BETWEEN 60 AND 2592000),
    ADD COLUMN increment_secs integer NOT NULL DEFAULT 0 CHECK (increment_secs BETWEEN 0 AND 2592000),
    ADD COLUMN running        boolean NOT NULL DEFAULT true,
    ADD COLUMN turn_key       text,
    ADD CONSTRAINT encounter_deadlines_kind_check CHECK (
        remind_secs >= 0 AND (
        (after_secs BETWEEN 60 AND 2592000 AND bank_secs IS NULL AND remind_secs < after_secs)
        OR (after_secs IS NULL AND bank_secs IS NOT NULL AND remind_secs < bank_secs)));

-- A clock's wait: since when (the workers' clock) and whose banks it
-- draws on; charged once its time was taken off them.
ALTER TABLE deadlines
    ADD COLUMN started_at timestamptz,
    ADD COLUMN waited     text[]  NOT NULL DEFAULT '{}',
    ADD COLUMN charged    boolean NOT NULL DEFAULT true;

CREATE INDEX deadlines_uncharged_idx ON deadlines (encounter_id) WHERE NOT charged;

-- What is left of each character's bank in a clocked encounter.
CREATE TABLE clock_banks (
    encounter_id uuid   NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    character_id text   NOT NULL,
    remaining_ms bigint NOT NULL CHECK (remaining_ms >= 0),
    PRIMARY KEY (encounter_id, character_id)
);

-- Standing orders: how a character's player has its prompts answered
-- while away or out of time, per ruleset (engine.StandingOrders as JSON).
-- Only the player who set them reads them, and they apply only while that
-- player owns the character.
CREATE TABLE standing_orders (
    campaign_id  uuid        NOT NULL,
    character_id text        NOT NULL CHECK (length(character_id) BETWEEN 1 AND 200),
    ruleset      text        NOT NULL,
    user_id      uuid        NOT NULL,
    orders       jsonb       NOT NULL,
    away         boolean     NOT NULL DEFAULT false,
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (campaign_id, character_id, ruleset),
    FOREIGN KEY (campaign_id, user_id) REFERENCES campaign_members (campaign_id, user_id) ON DELETE CASCADE
);

CREATE INDEX standing_orders_away_idx ON standing_orders (campaign_id) WHERE away;

-- Sealed answers the server committed to on a player's behalf (a standing
-- order, a notice's decision page) and reveals once the group has
-- answered: shown to no one, the GM included, before.
CREATE TABLE held_answers (
    encounter_id uuid        NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    commitment   text        NOT NULL,
    decision_id  text        NOT NULL,
    character_id text        NOT NULL,
    choice       text        NOT NULL,
    "values"     jsonb,
    nonce        text        NOT NULL,
    via          text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    revealed_at  timestamptz,
    PRIMARY KEY (encounter_id, commitment)
);

CREATE INDEX held_answers_open_idx ON held_answers (encounter_id) WHERE revealed_at IS NULL;

-- The server's keys by name: "links" signs the links notices carry.
CREATE TABLE server_keys (
    name       text        PRIMARY KEY,
    key        bytea       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
