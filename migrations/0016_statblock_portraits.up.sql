-- A bestiary entry or campaign character may have a portrait: a picture's
-- URL (/assets/<sha-256>), "" for none. Placing it in a draft copies it
-- onto the combatant.
ALTER TABLE bestiary ADD COLUMN portrait text NOT NULL DEFAULT ''
    CHECK (portrait = '' OR portrait ~ '^/assets/[0-9a-f]{64}$');
ALTER TABLE characters ADD COLUMN portrait text NOT NULL DEFAULT ''
    CHECK (portrait = '' OR portrait ~ '^/assets/[0-9a-f]{64}$');
