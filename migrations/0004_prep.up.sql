-- Encounter drafts: setup documents a GM edits before creating encounters.
CREATE TABLE drafts (
    id          uuid        PRIMARY KEY,
    campaign_id uuid        NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    ruleset     text        NOT NULL,
    setup       jsonb       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX drafts_campaign_idx ON drafts (campaign_id, created_at DESC);

-- A campaign's bestiary: stat blocks of non-player combatants.
CREATE TABLE bestiary (
    id          text        NOT NULL CHECK (length(id) BETWEEN 1 AND 64),
    campaign_id uuid        NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    ruleset     text        NOT NULL,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    stats       jsonb       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (campaign_id, id)
);

-- A campaign's player characters; id is their combatant id in encounters.
CREATE TABLE characters (
    id          text        NOT NULL CHECK (length(id) BETWEEN 1 AND 64),
    campaign_id uuid        NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    ruleset     text        NOT NULL,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    stats       jsonb       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (campaign_id, id)
);
