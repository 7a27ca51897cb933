-- Access that changes takes effect at once (see docs/architecture.md,
-- "Access changes").
--
-- Every change that can take something away from a signed-in member — their
-- membership, role or characters in a campaign, or the session or API token
-- they are signed in with — bumps the campaign's access_version and sends
-- NOTIFY fray_access '<campaign id>:<user id>:<new version>' when it commits,
-- for every campaign the member belongs to. Each server instance listens and
-- re-authorises that member's open websockets. A command is committed only if
-- the campaign's access_version is still the one its sender was authorised
-- at, so no command slips through between a change and its notification.
ALTER TABLE campaigns ADD COLUMN access_version bigint NOT NULL DEFAULT 1;

CREATE FUNCTION fray_access_changed(campaign uuid, member uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v bigint;
BEGIN
    UPDATE campaigns SET access_version = access_version + 1 WHERE id = campaign
    RETURNING access_version INTO v;
    -- A campaign being deleted has no row left: -1 asks for a full re-check.
    PERFORM pg_notify('fray_access', campaign::text || ':' || member::text || ':' || COALESCE(v, -1)::text);
END
$$;

-- Every campaign of a member whose credentials changed.
CREATE FUNCTION fray_member_access_changed(member uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    -- In campaign order, so that concurrent changes lock campaigns in one order.
    PERFORM fray_access_changed(m.campaign_id, m.user_id)
    FROM campaign_members m WHERE m.user_id = member
    ORDER BY m.campaign_id;
END
$$;

CREATE FUNCTION fray_campaign_members_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM fray_access_changed(OLD.campaign_id, OLD.user_id);
    RETURN NULL;
END
$$;

CREATE TRIGGER campaign_members_role_changed
    AFTER UPDATE ON campaign_members FOR EACH ROW
    WHEN (OLD.role IS DISTINCT FROM NEW.role)
    EXECUTE FUNCTION fray_campaign_members_changed();

CREATE TRIGGER campaign_members_removed
    AFTER DELETE ON campaign_members FOR EACH ROW
    EXECUTE FUNCTION fray_campaign_members_changed();

CREATE FUNCTION fray_character_owners_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM fray_access_changed(OLD.campaign_id, OLD.user_id);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        PERFORM fray_access_changed(NEW.campaign_id, NEW.user_id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER character_owners_changed
    AFTER INSERT OR DELETE ON character_owners FOR EACH ROW
    EXECUTE FUNCTION fray_character_owners_changed();

CREATE TRIGGER character_owners_reassigned
    AFTER UPDATE ON character_owners FOR EACH ROW
    WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.character_id IS DISTINCT FROM NEW.character_id)
    EXECUTE FUNCTION fray_character_owners_changed();

-- A session ends: log-out, password change (which deletes every session of
-- the user), the sweep of expired sessions, or the user's deletion.
CREATE FUNCTION fray_session_ended() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM fray_member_access_changed(OLD.user_id);
    RETURN NULL;
END
$$;

CREATE TRIGGER sessions_ended
    AFTER DELETE ON sessions FOR EACH ROW
    EXECUTE FUNCTION fray_session_ended();

-- An API token is revoked or deleted (not on every last_used_at update).
CREATE TRIGGER api_tokens_revoked
    AFTER UPDATE OF revoked_at ON api_tokens FOR EACH ROW
    WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
    EXECUTE FUNCTION fray_session_ended();

CREATE TRIGGER api_tokens_deleted
    AFTER DELETE ON api_tokens FOR EACH ROW
    EXECUTE FUNCTION fray_session_ended();

-- Command ids are scoped per sender (the user's id; '' for commands recorded
-- before this migration and for server-internal ones), so one member cannot
-- take another's id: the same id sent by two users is two commands.
ALTER TABLE commands ADD COLUMN sender text NOT NULL DEFAULT '';
ALTER TABLE commands DROP CONSTRAINT commands_pkey;
ALTER TABLE commands ADD PRIMARY KEY (encounter_id, sender, command_id);

-- Rate limits shared by every server instance: one row per key (an action and
-- a client address or user), holding the time its bucket is full again (the
-- generic cell rate algorithm). Rows whose bucket is full are swept.
CREATE TABLE rate_limits (
    key     text        PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 300),
    full_at timestamptz NOT NULL
);

CREATE INDEX rate_limits_full_at_idx ON rate_limits (full_at);
