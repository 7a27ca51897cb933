-- Hosting for a group (see docs/architecture.md, "Operating a server").
--
-- An operator may disable an account (server user disable NAME): it can no
-- longer sign in, its sessions end and its API tokens stop working, and its
-- open sockets close (the trigger below announces the change like any
-- other that takes access away, migration 0006). Enabling it again lets it
-- sign in again; its old sessions stay ended.
ALTER TABLE users ADD COLUMN disabled_at timestamptz;

CREATE FUNCTION fray_user_disabled() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM fray_member_access_changed(NEW.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER users_disabled
    AFTER UPDATE OF disabled_at ON users FOR EACH ROW
    WHEN (OLD.disabled_at IS NULL AND NEW.disabled_at IS NOT NULL)
    EXECUTE FUNCTION fray_user_disabled();

-- Password resets by e-mail: a link whose token's SHA-256 is kept here,
-- good once (used_at) and until expires_at. A new reset, or a password set
-- any other way, does not need to clear older links: using one checks that
-- the password has not changed since the link was made (created_at).
CREATE TABLE password_resets (
    token_hash bytea       PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);

CREATE INDEX password_resets_user_idx ON password_resets (user_id);
CREATE INDEX password_resets_expires_idx ON password_resets (expires_at);
