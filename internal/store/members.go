package store

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// Campaign roles. A GM runs the campaign (NPCs, invites, members) and may
// command anything; a player commands the characters they own. A campaign
// made by [DB.CreateCampaignFor] always keeps at least one GM.
const (
	RoleGM     = "gm"
	RolePlayer = "player"
)

// Member is a campaign member with the characters they own there.
type Member struct {
	UserID     string
	Name       string   // the user's name
	Role       string   // RoleGM or RolePlayer
	Characters []string // ids of the characters they own in the campaign, sorted; never nil
	Since      time.Time
}

// CampaignRole is a campaign seen by one of its members.
type CampaignRole struct {
	Campaign
	Role string
}

// MaxCharacterIDLen is the longest character id, in characters.
const MaxCharacterIDLen = 200

// validRole reports whether role is RoleGM or RolePlayer.
func validRole(role string) bool { return role == RoleGM || role == RolePlayer }

// Membership returns the role of user userID in campaign campaignID. A user
// who is not a member, an unknown campaign and malformed ids are all
// ENOTFOUND (campaign not found), so non-members cannot tell which
// campaigns exist.
func (db *DB) Membership(ctx context.Context, campaignID, userID string) (string, error) {
	if !validUUID(campaignID) || !validUUID(userID) {
		return "", campaignNotFound(campaignID)
	}
	var role string
	err := db.pool.QueryRow(ctx,
		`SELECT role FROM campaign_members WHERE campaign_id = $1::uuid AND user_id = $2::uuid`,
		campaignID, userID).Scan(&role)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", campaignNotFound(campaignID)
	}
	if err != nil {
		return "", fmt.Errorf("store: membership: %w", err)
	}
	return role, nil
}

// Members lists a campaign's members, GMs first, then by name, each with the
// characters they own. An unknown or malformed campaign id is ENOTFOUND.
func (db *DB) Members(ctx context.Context, campaignID string) ([]Member, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT m.user_id::text, u.name, m.role, m.created_at,
			COALESCE((SELECT array_agg(o.character_id ORDER BY o.character_id COLLATE "C")
				FROM character_owners o
				WHERE o.campaign_id = m.campaign_id AND o.user_id = m.user_id), '{}')
		FROM campaign_members m JOIN users u ON u.id = m.user_id
		WHERE m.campaign_id = $1::uuid
		ORDER BY m.role = 'gm' DESC, lower(u.name) COLLATE "C", u.name COLLATE "C", m.user_id`, campaignID)
	ms, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Member, error) {
		var m Member
		err := r.Scan(&m.UserID, &m.Name, &m.Role, &m.Since, &m.Characters)
		if m.Characters == nil {
			m.Characters = []string{}
		}
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: members: %w", err)
	}
	if len(ms) == 0 {
		if err := db.mustCampaign(ctx, campaignID); err != nil {
			return nil, err
		}
	}
	return ms, nil
}

// SetMember makes user userID a member of campaign campaignID with role, or
// changes their role. A role other than RoleGM and RolePlayer is EINVALID;
// an unknown campaign or user is ENOTFOUND; demoting the campaign's last GM
// is EILLEGAL.
func (db *DB) SetMember(ctx context.Context, campaignID, userID, role string) error {
	if !validRole(role) {
		return fray.Errorf(fray.EINVALID, "role %q: want %q or %q", role, RoleGM, RolePlayer)
	}
	if !validUUID(campaignID) {
		return campaignNotFound(campaignID)
	}
	if !validUUID(userID) {
		return userNotFound(userID)
	}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := lockCampaign(ctx, tx, campaignID); err != nil {
			return err
		}
		if role != RoleGM {
			current, gms, err := memberRole(ctx, tx, campaignID, userID)
			if err != nil {
				return err
			}
			if current == RoleGM && gms <= 1 {
				return lastGM()
			}
		}
		_, err := tx.Exec(ctx, `
			INSERT INTO campaign_members (campaign_id, user_id, role) VALUES ($1::uuid, $2::uuid, $3)
			ON CONFLICT (campaign_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
			campaignID, userID, role)
		return err
	})
	if pgCode(err) == sqlForeignKeyViolation {
		return userNotFound(userID)
	}
	if err != nil {
		return wrap("set member", err)
	}
	return nil
}

// RemoveMember removes user userID from campaign campaignID, with their
// ownership of characters there. A user who is not a member is ENOTFOUND;
// removing the campaign's last GM is EILLEGAL.
func (db *DB) RemoveMember(ctx context.Context, campaignID, userID string) error {
	if !validUUID(campaignID) {
		return campaignNotFound(campaignID)
	}
	if !validUUID(userID) {
		return notMember()
	}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := lockCampaign(ctx, tx, campaignID); err != nil {
			return err
		}
		current, gms, err := memberRole(ctx, tx, campaignID, userID)
		if err != nil {
			return err
		}
		switch {
		case current == "":
			return notMember()
		case current == RoleGM && gms <= 1:
			return lastGM()
		}
		// character_owners rows go with the membership (ON DELETE CASCADE).
		_, err = tx.Exec(ctx,
			`DELETE FROM campaign_members WHERE campaign_id = $1::uuid AND user_id = $2::uuid`,
			campaignID, userID)
		return err
	})
	if err != nil {
		return wrap("remove member", err)
	}
	return nil
}

// lockCampaign locks a campaign's row against concurrent membership changes
// (not against encounters or members being added, whose foreign key checks
// take a weaker lock); ENOTFOUND when there is no such campaign.
func lockCampaign(ctx context.Context, tx pgx.Tx, campaignID string) error {
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM campaigns WHERE id = $1::uuid FOR NO KEY UPDATE`, campaignID).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return campaignNotFound(campaignID)
	}
	return err
}

// memberRole returns the role of a user in a campaign ("" for none) and how
// many GMs the campaign has.
func memberRole(ctx context.Context, tx pgx.Tx, campaignID, userID string) (role string, gms int, err error) {
	err = tx.QueryRow(ctx, `
		SELECT COALESCE((SELECT role FROM campaign_members WHERE campaign_id = $1::uuid AND user_id = $2::uuid), ''),
			(SELECT count(*) FROM campaign_members WHERE campaign_id = $1::uuid AND role = 'gm')`,
		campaignID, userID).Scan(&role, &gms)
	return role, gms, err
}

func lastGM() error {
	return fray.Errorf(fray.EILLEGAL, "a campaign needs a GM: make someone else GM first")
}

func notMember() error {
	return fray.Errorf(fray.ENOTFOUND, "that user is not a member of this campaign")
}

// UserCampaigns lists the campaigns user userID is a member of, with their
// role in each, newest first. An unknown or malformed user id is ENOTFOUND.
func (db *DB) UserCampaigns(ctx context.Context, userID string) ([]CampaignRole, error) {
	if !validUUID(userID) {
		return nil, userNotFound(userID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT c.id::text, c.name, c.created_at, m.role
		FROM campaign_members m JOIN campaigns c ON c.id = m.campaign_id
		WHERE m.user_id = $1::uuid
		ORDER BY c.created_at DESC, c.id`, userID)
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (CampaignRole, error) {
		var c CampaignRole
		err := r.Scan(&c.ID, &c.Name, &c.CreatedAt, &c.Role)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: user campaigns: %w", err)
	}
	if len(cs) == 0 {
		ok, err := db.userExists(ctx, userID)
		if err != nil {
			return nil, fmt.Errorf("store: user campaigns: %w", err)
		}
		if !ok {
			return nil, userNotFound(userID)
		}
	}
	return cs, nil
}

// AssignCharacter makes user userID the owner of character characterID in
// campaign campaignID, replacing any previous owner; userID "" leaves the
// character without an owner. The user must be a member of the campaign
// (EINVALID otherwise); an unknown campaign is ENOTFOUND; a character id that
// is empty, longer than MaxCharacterIDLen or not valid text is EINVALID.
func (db *DB) AssignCharacter(ctx context.Context, campaignID, characterID, userID string) error {
	if !validUUID(campaignID) {
		return campaignNotFound(campaignID)
	}
	if n := utf8.RuneCountInString(characterID); n == 0 || n > MaxCharacterIDLen || !validText(characterID) {
		return fray.Errorf(fray.EINVALID, "a character id has 1–%d characters", MaxCharacterIDLen)
	}
	if userID == "" {
		tag, err := db.pool.Exec(ctx,
			`DELETE FROM character_owners WHERE campaign_id = $1::uuid AND character_id = $2`,
			campaignID, characterID)
		if err != nil {
			return fmt.Errorf("store: unassign character: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return db.mustCampaign(ctx, campaignID)
		}
		return nil
	}
	notMember := fray.Errorf(fray.EINVALID, "that user is not a member of this campaign")
	if !validUUID(userID) {
		return notMember
	}
	_, err := db.pool.Exec(ctx, `
		INSERT INTO character_owners (campaign_id, character_id, user_id) VALUES ($1::uuid, $2, $3::uuid)
		ON CONFLICT (campaign_id, character_id) DO UPDATE SET user_id = EXCLUDED.user_id`,
		campaignID, characterID, userID)
	if pgCode(err) == sqlForeignKeyViolation {
		if err := db.mustCampaign(ctx, campaignID); err != nil {
			return err
		}
		return notMember
	}
	if err != nil {
		return fmt.Errorf("store: assign character: %w", err)
	}
	return nil
}

// CharacterOwners maps the owned characters of a campaign to their owners'
// user ids. An unknown or malformed campaign id is ENOTFOUND.
func (db *DB) CharacterOwners(ctx context.Context, campaignID string) (map[string]string, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx,
		`SELECT character_id, user_id::text FROM character_owners WHERE campaign_id = $1::uuid`, campaignID)
	owners := map[string]string{}
	var character, user string
	_, err := pgx.ForEachRow(rows, []any{&character, &user}, func() error {
		owners[character] = user
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: character owners: %w", err)
	}
	if len(owners) == 0 {
		if err := db.mustCampaign(ctx, campaignID); err != nil {
			return nil, err
		}
	}
	return owners, nil
}

// UserCharacters returns the ids of the characters user userID owns in
// campaign campaignID, sorted (bytewise); none for a non-member. Malformed
// ids are ENOTFOUND.
func (db *DB) UserCharacters(ctx context.Context, campaignID, userID string) ([]string, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	if !validUUID(userID) {
		return nil, userNotFound(userID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT character_id FROM character_owners
		WHERE campaign_id = $1::uuid AND user_id = $2::uuid
		ORDER BY character_id COLLATE "C"`, campaignID, userID)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store: user characters: %w", err)
	}
	return ids, nil
}

// mustCampaign is nil when campaign id exists, ENOTFOUND when it does not.
func (db *DB) mustCampaign(ctx context.Context, id string) error {
	ok, err := db.campaignExists(ctx, id)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if !ok {
		return campaignNotFound(id)
	}
	return nil
}

// wrap returns err as is when it carries a fray code, else wrapped as an
// internal store error of op.
func wrap(op string, err error) error {
	var fe *fray.Error
	if errors.As(err, &fe) {
		return err
	}
	return fmt.Errorf("store: %s: %w", op, err)
}
