-- Accounts. name is the login name, unique regardless of case; the server
-- restricts it further (auth.ValidateName). password_hash is an argon2id
-- PHC string.
CREATE TABLE users (
    id                  uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name                text        NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    password_hash       text        NOT NULL CHECK (password_hash <> ''),
    created_at          timestamptz NOT NULL DEFAULT now(),
    password_changed_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX users_name_lower_idx ON users (lower(name));

-- Signed-in browsers. Only the SHA-256 of the cookie's token is stored, so a
-- copy of this table cannot be used to sign in.
CREATE TABLE sessions (
    token_hash bytea       PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);

CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Personal access tokens for the JSON API, stored as the SHA-256 of the token.
CREATE TABLE api_tokens (
    id           uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id      uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text        NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    token_hash   bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);

CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at DESC);

-- Who belongs to a campaign, and as what.
CREATE TABLE campaign_members (
    campaign_id uuid        NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    user_id     uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        text        NOT NULL CHECK (role IN ('gm', 'player')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (campaign_id, user_id)
);

CREATE INDEX campaign_members_user_idx ON campaign_members (user_id);

-- Which member plays which character (a combatant id) in a campaign. The
-- owner must be a member: removing the member drops their characters.
CREATE TABLE character_owners (
    campaign_id  uuid NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    character_id text NOT NULL CHECK (length(character_id) BETWEEN 1 AND 200),
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (campaign_id, character_id),
    CONSTRAINT character_owners_member_fkey FOREIGN KEY (campaign_id, user_id)
        REFERENCES campaign_members (campaign_id, user_id) ON DELETE CASCADE
);

CREATE INDEX character_owners_member_idx ON character_owners (campaign_id, user_id);

-- Invitation links to join a campaign as a player, stored as the SHA-256 of
-- the link's token. An invite is reusable until it expires or is revoked; it
-- goes with the account that made it.
CREATE TABLE invites (
    id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    campaign_id uuid        NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    created_by  uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash  bytea       NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);

CREATE INDEX invites_campaign_idx ON invites (campaign_id, created_at DESC);
CREATE INDEX invites_created_by_idx ON invites (created_by);
