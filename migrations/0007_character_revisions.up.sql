-- A campaign character's history. Every version of its stats is a
-- revision, numbered from 1; characters.stats always holds the stats of the
-- latest revision and characters.revision its number.
ALTER TABLE characters ADD COLUMN revision int NOT NULL DEFAULT 1 CHECK (revision > 0);

-- kind: 'created', 'edited' (the GM's stat editor), 'carried' (an
-- encounter's carry-over) or 'imported'. changes lists what changed from the
-- previous revision, in words ([{path, label, before, after}]). The
-- encounter and the user are kept by name too, so the history survives them
-- and an import from another server.
CREATE TABLE character_revisions (
    campaign_id    uuid        NOT NULL,
    character_id   text        NOT NULL,
    revision       int         NOT NULL CHECK (revision > 0),
    name           text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    stats          jsonb       NOT NULL,
    kind           text        NOT NULL CHECK (kind IN ('created', 'edited', 'carried', 'imported')),
    changes        jsonb       NOT NULL DEFAULT '[]',
    encounter_id   uuid        REFERENCES encounters (id) ON DELETE SET NULL,
    encounter_name text        NOT NULL DEFAULT '',
    user_id        uuid        REFERENCES users (id) ON DELETE SET NULL,
    user_name      text        NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (campaign_id, character_id, revision),
    FOREIGN KEY (campaign_id, character_id) REFERENCES characters (campaign_id, id) ON DELETE CASCADE
);

CREATE INDEX character_revisions_encounter_idx ON character_revisions (encounter_id)
    WHERE encounter_id IS NOT NULL;

-- Characters made before revisions existed start with one.
INSERT INTO character_revisions (campaign_id, character_id, revision, name, stats, kind, created_at)
SELECT campaign_id, id, 1, name, stats, 'created', created_at FROM characters;

-- An encounter's carry-over decision for one character, replaced as a
-- whole by the next decision: seq is the encounter's seq the decision was
-- made at (a later end after a rewind has a higher one); applied is what it
-- did to the character's carried values ({path: {from, to}}), which the
-- next decision of the same encounter undoes first; revision is the
-- character revision it wrote, if any.
CREATE TABLE carry_overs (
    encounter_id uuid        NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    campaign_id  uuid        NOT NULL,
    character_id text        NOT NULL,
    seq          bigint      NOT NULL CHECK (seq >= 0),
    decision     text        NOT NULL CHECK (decision IN ('confirmed', 'skipped')),
    applied      jsonb       NOT NULL DEFAULT '{}',
    revision     int,
    user_id      uuid        REFERENCES users (id) ON DELETE SET NULL,
    user_name    text        NOT NULL DEFAULT '',
    decided_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (encounter_id, character_id),
    FOREIGN KEY (campaign_id, character_id) REFERENCES characters (campaign_id, id) ON DELETE CASCADE
);

CREATE INDEX carry_overs_character_idx ON carry_overs (campaign_id, character_id);
