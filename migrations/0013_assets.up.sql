-- Pictures uploaded to a campaign (scene images, portraits, handouts),
-- content-addressed: id is the SHA-256 of the display encoding, so the same
-- picture uploaded twice is stored once per campaign. Both sizes are kept
-- in the database, so every server instance serves them and a backup keeps
-- them. bytes counts both, for the campaign's quota.
CREATE TABLE assets (
    campaign_id  uuid        NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    id           text        NOT NULL CHECK (id ~ '^[0-9a-f]{64}$'),
    uploaded_by  uuid        REFERENCES users (id) ON DELETE SET NULL,
    name         text        NOT NULL DEFAULT '' CHECK (length(name) <= 200),
    content_type text        NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
    width        integer     NOT NULL CHECK (width > 0),
    height       integer     NOT NULL CHECK (height > 0),
    data         bytea       NOT NULL,
    thumb_type   text        NOT NULL CHECK (thumb_type IN ('image/png', 'image/jpeg')),
    thumb        bytea       NOT NULL,
    bytes        bigint      NOT NULL CHECK (bytes > 0),
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (campaign_id, id)
);

-- Serving looks an asset up by id alone (its URL names no campaign).
CREATE INDEX assets_id_idx ON assets (id);

-- The GM's private notes on the campaign.
ALTER TABLE campaigns ADD COLUMN gm_notes text NOT NULL DEFAULT '' CHECK (length(gm_notes) <= 20000);
