-- Notices when the page is closed (see docs/architecture.md, "Notices: the
-- outbox"): campaign webhooks, Web Push subscriptions, e-mail addresses, each
-- member's choice of channels per campaign, and the outbox itself.

-- A member's e-mail address, for notices by e-mail (optional).
ALTER TABLE users ADD COLUMN email text
    CHECK (email IS NULL OR length(email) BETWEEN 3 AND 254);

-- A campaign's webhooks, set by its GMs. secret signs every delivery of the
-- json format (HMAC-SHA256); it is shown once, when the webhook is made.
CREATE TABLE webhooks (
    id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    campaign_id uuid        NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    url         text        NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
    format      text        NOT NULL CHECK (format IN ('discord', 'json')),
    secret      text        NOT NULL CHECK (length(secret) >= 32),
    created_by  uuid        REFERENCES users (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhooks_campaign_idx ON webhooks (campaign_id, created_at);

-- A browser's Web Push subscription (one per browser a user subscribed).
CREATE TABLE push_subscriptions (
    id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint   text        NOT NULL CHECK (length(endpoint) BETWEEN 1 AND 2000),
    p256dh     text        NOT NULL CHECK (length(p256dh) BETWEEN 1 AND 200),
    auth       text        NOT NULL CHECK (length(auth) BETWEEN 1 AND 100),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, endpoint)
);

-- The server's VAPID key pair (RFC 8292), made once and kept: browsers
-- subscribed with its public key.
CREATE TABLE vapid_keys (
    id          int         PRIMARY KEY CHECK (id = 1),
    public_key  text        NOT NULL,
    private_key text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Which channels a member wants a campaign's notices on. Leaving the
-- campaign drops the choice.
CREATE TABLE notice_settings (
    campaign_id uuid    NOT NULL,
    user_id     uuid    NOT NULL,
    push        boolean NOT NULL DEFAULT false,
    email       boolean NOT NULL DEFAULT false,
    PRIMARY KEY (campaign_id, user_id),
    FOREIGN KEY (campaign_id, user_id) REFERENCES campaign_members (campaign_id, user_id) ON DELETE CASCADE
);

CREATE INDEX notice_settings_user_idx ON notice_settings (user_id);

-- The outbox: a notice is written in the transaction of the event (or the
-- deadline) that causes it, and carries no text: the worker builds each
-- recipient's from event seq as the engine's filter shows it to them.
-- expanded_at is set once its deliveries are made.
CREATE TABLE notices (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    encounter_id uuid        NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    seq          bigint      NOT NULL CHECK (seq > 0),
    type         text        NOT NULL CHECK (type IN ('turn', 'decision', 'encounter-started', 'encounter-ended', 'reminder')),
    user_id      uuid        REFERENCES users (id) ON DELETE CASCADE,
    data         jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expanded_at  timestamptz
);

CREATE INDEX notices_waiting_idx ON notices (id) WHERE expanded_at IS NULL;
CREATE INDEX notices_expanded_idx ON notices (expanded_at) WHERE expanded_at IS NOT NULL;

-- One delivery of a notice to one target: a webhook, a browser's push
-- subscription, or a user's e-mail address. Its id is the delivery id every
-- attempt carries (receivers drop repeats by it); (notice, target) is unique,
-- so a notice is delivered once per target however often it is expanded.
-- A worker claims due rows (FOR UPDATE SKIP LOCKED) by moving next_at past
-- its lease; a worker that dies mid-delivery leaves the lease to run out,
-- and another tries again. A retry after a failure waits in next_at too.
CREATE TABLE deliveries (
    id           uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    notice_id    bigint      NOT NULL REFERENCES notices (id) ON DELETE CASCADE,
    target       text        NOT NULL,
    channel      text        NOT NULL CHECK (channel IN ('webhook', 'push', 'email')),
    webhook_id   uuid        REFERENCES webhooks (id) ON DELETE CASCADE,
    push_id      uuid        REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    user_id      uuid        REFERENCES users (id) ON DELETE CASCADE,
    type         text        NOT NULL,
    payload      jsonb       NOT NULL,
    status       text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts     int         NOT NULL DEFAULT 0,
    next_at      timestamptz NOT NULL DEFAULT now(),
    last_error   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz,
    UNIQUE (notice_id, target),
    CHECK ((channel = 'webhook') = (webhook_id IS NOT NULL)),
    CHECK ((channel = 'push') = (push_id IS NOT NULL)),
    CHECK (channel <> 'email' OR user_id IS NOT NULL)
);

CREATE INDEX deliveries_due_idx ON deliveries (next_at) WHERE status = 'pending';
CREATE INDEX deliveries_finished_idx ON deliveries (finished_at) WHERE status <> 'pending';
CREATE INDEX deliveries_webhook_idx ON deliveries (webhook_id) WHERE webhook_id IS NOT NULL;
CREATE INDEX deliveries_push_idx ON deliveries (push_id) WHERE push_id IS NOT NULL;
CREATE INDEX deliveries_user_idx ON deliveries (user_id) WHERE user_id IS NOT NULL;
