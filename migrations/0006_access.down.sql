DROP TABLE IF EXISTS rate_limits;

-- Ids that only differ by sender cannot all keep their row under the old key.
DELETE FROM commands c USING commands d
WHERE c.encounter_id = d.encounter_id AND c.command_id = d.command_id
  AND (c.sender, c.created_at) > (d.sender, d.created_at);
ALTER TABLE commands DROP CONSTRAINT commands_pkey;
ALTER TABLE commands ADD PRIMARY KEY (encounter_id, command_id);
ALTER TABLE commands DROP COLUMN sender;

DROP TRIGGER IF EXISTS api_tokens_deleted ON api_tokens;
DROP TRIGGER IF EXISTS api_tokens_revoked ON api_tokens;
DROP TRIGGER IF EXISTS sessions_ended ON sessions;
DROP FUNCTION IF EXISTS fray_session_ended();
DROP TRIGGER IF EXISTS character_owners_reassigned ON character_owners;
DROP TRIGGER IF EXISTS character_owners_changed ON character_owners;
DROP FUNCTION IF EXISTS fray_character_owners_changed();
DROP TRIGGER IF EXISTS campaign_members_removed ON campaign_members;
DROP TRIGGER IF EXISTS campaign_members_role_changed ON campaign_members;
DROP FUNCTION IF EXISTS fray_campaign_members_changed();
DROP FUNCTION IF EXISTS fray_member_access_changed(uuid);
DROP FUNCTION IF EXISTS fray_access_changed(uuid, uuid);
ALTER TABLE campaigns DROP COLUMN IF EXISTS access_version;
