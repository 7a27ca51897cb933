package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

// A campaign character (a stat block of the characters table) is
// versioned: every change of its stats is a Revision, numbered from 1, and
// the character's stats are always those of its latest revision. An
// encounter's carry-over decision per character is a CarryOver.

// Revision kinds: how a character's stats came to be.
const (
	RevisionCreated  = "created"  // added to the campaign
	RevisionEdited   = "edited"   // changed in the GM's stat editor
	RevisionCarried  = "carried"  // an encounter's carry-over
	RevisionImported = "imported" // read from a characters file
)

// Character is a campaign character with its current revision number.
type Character struct {
	StatBlock
	Revision int
}

// Revision is one version of a character's stats.
type Revision struct {
	CampaignID, CharacterID string
	Revision                int
	Name                    string
	Stats                   []byte
	Kind                    string
	// Changes says what changed from the previous revision, in words.
	Changes []sheet.Change
	// EncounterID links a carried revision to its encounter ("" when
	// none, or the encounter is gone); EncounterName stays.
	EncounterID, EncounterName string
	// UserID is who made the revision ("" when unknown, or the account is
	// gone); UserName stays.
	UserID, UserName string
	CreatedAt        time.Time
}

// CharacterSave is one write of a character's stats with its revision.
type CharacterSave struct {
	Block StatBlock
	// Create refuses an id already in use (ECONFLICT); otherwise the
	// character must exist (ENOTFOUND) unless Upsert.
	Create, Upsert bool
	// ExpectRevision, when not 0, makes the save fail with ECONFLICT if
	// the character has moved on meanwhile.
	ExpectRevision int
	Kind           string
	Changes        []sheet.Change
	EncounterID    string
	EncounterName  string
	UserID         string
	UserName       string

	raced bool // an upsert found the row made meanwhile by another save
}

// CarryOver is an encounter's carry-over decision for one character.
type CarryOver struct {
	EncounterID, CampaignID, CharacterID string
	// Seq is the encounter's seq the decision was made at.
	Seq      int64
	Decision string // CarryConfirmed or CarrySkipped
	// Applied is what the decision did to the character's carried values.
	Applied sheet.CarryApplied
	// Revision is the character revision it wrote, 0 when none.
	Revision         int
	UserID, UserName string
	DecidedAt        time.Time
}

// Carry-over decisions.
const (
	CarryConfirmed = "confirmed"
	CarrySkipped   = "skipped"
)

// CarryDecision is a carry-over decision to record, with the character
// write it makes (nil when the character does not change).
type CarryDecision struct {
	CarryOver
	// ExpectRevision is the character's revision the decision was worked
	// out from (0 for a character it creates).
	ExpectRevision int
	Write          *CharacterSave
}

func characterNotFound(id string) error {
	return fray.Errorf(fray.ENOTFOUND, "character %q not found", id)
}

const characterColumns = `id, campaign_id::text, ruleset, name, stats, portrait, updated_at, revision`

func scanCharacter(r pgx.Row) (Character, error) {
	var c Character
	err := r.Scan(&c.ID, &c.CampaignID, &c.Ruleset, &c.Name, &c.Stats, &c.Portrait, &c.UpdatedAt, &c.Revision)
	return c, err
}

// Characters lists a campaign's characters by name, with their revisions.
func (db *DB) Characters(ctx context.Context, campaignID string) ([]Character, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `SELECT `+characterColumns+` FROM characters
		WHERE campaign_id = $1::uuid ORDER BY lower(name), id`, campaignID)
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Character, error) { return scanCharacter(r) })
	if err != nil {
		return nil, fmt.Errorf("store: characters: %w", err)
	}
	return cs, nil
}

// Character returns one character of a campaign.
func (db *DB) Character(ctx context.Context, campaignID, id string) (Character, error) {
	if !validUUID(campaignID) {
		return Character{}, campaignNotFound(campaignID)
	}
	c, err := scanCharacter(db.pool.QueryRow(ctx, `SELECT `+characterColumns+` FROM characters
		WHERE campaign_id = $1::uuid AND id = $2`, campaignID, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return Character{}, characterNotFound(id)
	}
	if err != nil {
		return Character{}, fmt.Errorf("store: character: %w", err)
	}
	return c, nil
}

const revisionColumns = `campaign_id::text, character_id, revision, name, stats, kind, changes,
	coalesce(encounter_id::text, ''), encounter_name, coalesce(user_id::text, ''), user_name, created_at`

func scanRevision(r pgx.Row) (Revision, error) {
	var v Revision
	var changes []byte
	err := r.Scan(&v.CampaignID, &v.CharacterID, &v.Revision, &v.Name, &v.Stats, &v.Kind, &changes,
		&v.EncounterID, &v.EncounterName, &v.UserID, &v.UserName, &v.CreatedAt)
	if err == nil {
		err = json.Unmarshal(changes, &v.Changes)
	}
	return v, err
}

// Revisions lists a character's revisions, newest first.
func (db *DB) Revisions(ctx context.Context, campaignID, characterID string) ([]Revision, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `SELECT `+revisionColumns+` FROM character_revisions
		WHERE campaign_id = $1::uuid AND character_id = $2 ORDER BY revision DESC`, campaignID, characterID)
	vs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Revision, error) { return scanRevision(r) })
	if err != nil {
		return nil, fmt.Errorf("store: revisions: %w", err)
	}
	if len(vs) == 0 {
		if _, err := db.Character(ctx, campaignID, characterID); err != nil {
			return nil, err
		}
	}
	return vs, nil
}

// EncounterRevisions lists the revisions encounters of a campaign made
// (carried, or created from an encounter), oldest first, without stats.
func (db *DB) EncounterRevisions(ctx context.Context, campaignID string) ([]Revision, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `SELECT campaign_id::text, character_id, revision, name, '{}'::jsonb, kind, changes,
		coalesce(encounter_id::text, ''), encounter_name, coalesce(user_id::text, ''), user_name, created_at
		FROM character_revisions WHERE campaign_id = $1::uuid AND encounter_id IS NOT NULL
		ORDER BY created_at, character_id, revision`, campaignID)
	vs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Revision, error) { return scanRevision(r) })
	if err != nil {
		return nil, fmt.Errorf("store: encounter revisions: %w", err)
	}
	return vs, nil
}

// SaveCharacter writes a character's stats (and name and ruleset) and
// records the revision, in one transaction; it returns the character's
// revision number after it. A save that changes nothing records nothing and
// returns the current revision.
func (db *DB) SaveCharacter(ctx context.Context, s CharacterSave) (int, error) {
	if !validUUID(s.Block.CampaignID) {
		return 0, campaignNotFound(s.Block.CampaignID)
	}
	if err := checkStatBlock(&s.Block); err != nil {
		return 0, err
	}
	var rev int
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		rev, err = saveCharacter(ctx, tx, s)
		return err
	})
	return rev, err
}

// saveCharacter is SaveCharacter inside tx; the block is already checked.
func saveCharacter(ctx context.Context, tx pgx.Tx, s CharacterSave) (int, error) {
	b := s.Block
	if s.Kind == "" {
		s.Kind = RevisionEdited
	}
	var cur int
	var same bool
	err := tx.QueryRow(ctx, `SELECT revision, stats = $3::jsonb AND name = $4 AND ruleset = $5 FROM characters
		WHERE campaign_id = $1::uuid AND id = $2 FOR UPDATE`, b.CampaignID, b.ID, b.Stats, b.Name, b.Ruleset).Scan(&cur, &same)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if !s.Create && !s.Upsert {
			return 0, characterNotFound(b.ID)
		}
		if s.ExpectRevision != 0 {
			return 0, fray.Errorf(fray.ECONFLICT, "character %q was deleted meanwhile", b.ID)
		}
		if s.Kind == RevisionEdited {
			s.Kind = RevisionCreated
		}
		// Two saves of a new character at once (two encounters created
		// together with the same player characters) both find no row: the
		// second waits for the first here and then finds the row taken.
		tag, err := tx.Exec(ctx, `INSERT INTO characters (id, campaign_id, ruleset, name, stats, revision)
			VALUES ($1, $2::uuid, $3, $4, $5, 1) ON CONFLICT (campaign_id, id) DO NOTHING`, b.ID, b.CampaignID, b.Ruleset, b.Name, b.Stats)
		switch pgCode(err) {
		case "":
		case sqlForeignKeyViolation:
			return 0, campaignNotFound(b.CampaignID)
		default:
			return 0, fmt.Errorf("store: create character: %w", err)
		}
		if tag.RowsAffected() == 0 {
			if s.Create || s.raced {
				return 0, fray.Errorf(fray.ECONFLICT, "%q is already in use; choose another name", b.ID)
			}
			s.raced = true
			return saveCharacter(ctx, tx, s) // an upsert: now an update of the row the other save made
		}
		return 1, insertRevision(ctx, tx, s, 1)
	case err != nil:
		return 0, fmt.Errorf("store: character: %w", err)
	case s.Create:
		return 0, fray.Errorf(fray.ECONFLICT, "%q is already in use; choose another name", b.ID)
	case s.ExpectRevision != 0 && s.ExpectRevision != cur:
		return 0, fray.Errorf(fray.ECONFLICT, "character %q changed meanwhile (revision %d, not %d); look again", b.ID, cur, s.ExpectRevision)
	case same:
		return cur, nil
	}
	if _, err := tx.Exec(ctx, `UPDATE characters SET ruleset = $3, name = $4, stats = $5, revision = $6, updated_at = now()
		WHERE campaign_id = $1::uuid AND id = $2`, b.CampaignID, b.ID, b.Ruleset, b.Name, b.Stats, cur+1); err != nil {
		return 0, fmt.Errorf("store: update character: %w", err)
	}
	return cur + 1, insertRevision(ctx, tx, s, cur+1)
}

func insertRevision(ctx context.Context, tx pgx.Tx, s CharacterSave, n int) error {
	changes := s.Changes
	if changes == nil {
		changes = []sheet.Change{}
	}
	raw, err := json.Marshal(changes)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO character_revisions
		(campaign_id, character_id, revision, name, stats, kind, changes, encounter_id, encounter_name, user_id, user_name)
		VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, NULLIF($8, '')::uuid, $9, NULLIF($10, '')::uuid, $11)`,
		s.Block.CampaignID, s.Block.ID, n, s.Block.Name, s.Block.Stats, s.Kind, raw,
		uuidOrEmpty(s.EncounterID), s.EncounterName, uuidOrEmpty(s.UserID), s.UserName)
	if pgCode(err) == sqlForeignKeyViolation {
		// The encounter or the account went away meanwhile: keep the names.
		_, err = tx.Exec(ctx, `INSERT INTO character_revisions
			(campaign_id, character_id, revision, name, stats, kind, changes, encounter_name, user_name)
			VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9)`,
			s.Block.CampaignID, s.Block.ID, n, s.Block.Name, s.Block.Stats, s.Kind, raw, s.EncounterName, s.UserName)
	}
	if err != nil {
		return fmt.Errorf("store: revision: %w", err)
	}
	return nil
}

func uuidOrEmpty(s string) string {
	if validUUID(s) {
		return s
	}
	return ""
}

// CarryOvers lists an encounter's carry-over decisions by character.
func (db *DB) CarryOvers(ctx context.Context, encounterID string) ([]CarryOver, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	rows, _ := db.pool.Query(ctx, `SELECT encounter_id::text, campaign_id::text, character_id, seq, decision, applied,
		coalesce(revision, 0), coalesce(user_id::text, ''), user_name, decided_at
		FROM carry_overs WHERE encounter_id = $1::uuid ORDER BY character_id`, encounterID)
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (CarryOver, error) {
		var c CarryOver
		var applied []byte
		err := r.Scan(&c.EncounterID, &c.CampaignID, &c.CharacterID, &c.Seq, &c.Decision, &applied,
			&c.Revision, &c.UserID, &c.UserName, &c.DecidedAt)
		if err == nil {
			err = json.Unmarshal(applied, &c.Applied)
		}
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: carry-overs: %w", err)
	}
	return cs, nil
}

// DecideCarryOver records carry-over decisions of encounterID made at seq,
// with their character writes, all or none. It is ECONFLICT, changing
// nothing, when the encounter is no longer at seq or a character's revision
// is no longer the decision's ExpectRevision: the caller works the
// decisions out again. Each written decision gets the revision its write
// made (or the character's current one when the write changed nothing).
func (db *DB) DecideCarryOver(ctx context.Context, encounterID string, seq int64, ds []CarryDecision) ([]CarryOver, error) {
	if !validUUID(encounterID) {
		return nil, encounterNotFound(encounterID)
	}
	for _, d := range ds {
		if d.Write != nil {
			if err := checkStatBlock(&d.Write.Block); err != nil {
				return nil, err
			}
		}
	}
	out := make([]CarryOver, 0, len(ds))
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var at int64
		// FOR UPDATE holds off commands to the encounter (appends lock its
		// row FOR KEY SHARE) until the decisions are in, so they are about
		// the state they were worked out from.
		err := tx.QueryRow(ctx, `SELECT 1 FROM encounters WHERE id = $1::uuid FOR UPDATE`, encounterID).Scan(&at)
		if errors.Is(err, pgx.ErrNoRows) {
			return encounterNotFound(encounterID)
		}
		if err == nil {
			err = tx.QueryRow(ctx, `SELECT COALESCE(max(seq), 0) FROM events WHERE encounter_id = $1::uuid`, encounterID).Scan(&at)
		}
		if err != nil {
			return fmt.Errorf("store: carry-over: %w", err)
		}
		if at != seq {
			return fray.Errorf(fray.ECONFLICT, "the encounter changed meanwhile (it is at event %d, not %d); review the carry-over again", at, seq)
		}
		for _, d := range ds {
			c := d.CarryOver
			c.EncounterID, c.Seq = encounterID, seq
			if d.Write == nil {
				var cur int
				err := tx.QueryRow(ctx, `SELECT revision FROM characters WHERE campaign_id = $1::uuid AND id = $2 FOR UPDATE`,
					c.CampaignID, c.CharacterID).Scan(&cur)
				if errors.Is(err, pgx.ErrNoRows) {
					return characterNotFound(c.CharacterID)
				}
				if err != nil {
					return fmt.Errorf("store: carry-over: %w", err)
				}
				if d.ExpectRevision != 0 && cur != d.ExpectRevision {
					return fray.Errorf(fray.ECONFLICT, "character %q changed meanwhile; review the carry-over again", c.CharacterID)
				}
			} else {
				w := *d.Write
				w.ExpectRevision = d.ExpectRevision
				w.Create = d.ExpectRevision == 0
				rev, err := saveCharacter(ctx, tx, w)
				if err != nil {
					return err
				}
				c.Revision = rev
			}
			applied := c.Applied
			if applied == nil {
				applied = sheet.CarryApplied{}
			}
			raw, err := json.Marshal(applied)
			if err != nil {
				return err
			}
			err = tx.QueryRow(ctx, `INSERT INTO carry_overs
				(encounter_id, campaign_id, character_id, seq, decision, applied, revision, user_id, user_name)
				VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, NULLIF($7, 0), NULLIF($8, '')::uuid, $9)
				ON CONFLICT (encounter_id, character_id) DO UPDATE SET seq = EXCLUDED.seq, decision = EXCLUDED.decision,
					applied = EXCLUDED.applied, revision = EXCLUDED.revision, user_id = EXCLUDED.user_id,
					user_name = EXCLUDED.user_name, decided_at = now()
				RETURNING decided_at`,
				encounterID, c.CampaignID, c.CharacterID, seq, c.Decision, raw, c.Revision, uuidOrEmpty(c.UserID), c.UserName).Scan(&c.DecidedAt)
			if err != nil {
				return fmt.Errorf("store: carry-over: %w", err)
			}
			c.Applied = applied
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CharacterImport is a character read from a file, with its history.
type CharacterImport struct {
	Block StatBlock
	// Revisions are the file's revisions, oldest first; their numbers are
	// kept. Their encounter and user ids are not (they name another
	// server's rows): only the names stay.
	Revisions []Revision
	// Import is the revision recording the import itself (Kind
	// RevisionImported, numbered after the file's), with Block's stats.
	Import Revision
}

// ImportCharacters adds characters with their revisions to a campaign, all
// or none. An id already in use is ECONFLICT: an import never rewrites a
// character's history.
func (db *DB) ImportCharacters(ctx context.Context, campaignID string, cs []CharacterImport) error {
	if !validUUID(campaignID) {
		return campaignNotFound(campaignID)
	}
	for i := range cs {
		cs[i].Block.CampaignID = campaignID
		if err := checkStatBlock(&cs[i].Block); err != nil {
			return err
		}
	}
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		for _, c := range cs {
			b := c.Block
			last := c.Import.Revision
			if checkPortrait(ctx, tx, campaignID, b.Portrait) != nil {
				// A file from another campaign or server names a picture
				// this campaign does not hold: the character comes without.
				b.Portrait = ""
			}
			_, err := tx.Exec(ctx, `INSERT INTO characters (id, campaign_id, ruleset, name, stats, revision, portrait)
				VALUES ($1, $2::uuid, $3, $4, $5, $6, $7)`, b.ID, campaignID, b.Ruleset, b.Name, b.Stats, last, b.Portrait)
			switch pgCode(err) {
			case "":
			case sqlUniqueViolation:
				return fray.Errorf(fray.ECONFLICT, "the campaign already has a character %q; delete it first or change the id in the file", b.ID)
			case sqlForeignKeyViolation:
				return campaignNotFound(campaignID)
			case sqlCheckViolation:
				return fray.Errorf(fray.EINVALID, "character %q: revision %d is not a revision number", b.ID, last)
			default:
				return fmt.Errorf("store: import character: %w", err)
			}
			for i, v := range append(append([]Revision{}, c.Revisions...), c.Import) {
				if i < len(c.Revisions) {
					v.UserID = "" // another server's account
				}
				raw, err := json.Marshal(nonNilChanges(v.Changes))
				if err != nil {
					return err
				}
				name := v.Name
				if name == "" {
					name = b.Name
				}
				created := v.CreatedAt
				if created.IsZero() {
					created = time.Now()
				}
				_, err = tx.Exec(ctx, `INSERT INTO character_revisions
					(campaign_id, character_id, revision, name, stats, kind, changes, encounter_name, user_id, user_name, created_at)
					VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, NULLIF($9, '')::uuid, $10, $11)`,
					campaignID, b.ID, v.Revision, name, v.Stats, v.Kind, raw, v.EncounterName, uuidOrEmpty(v.UserID), v.UserName, created)
				switch pgCode(err) {
				case "":
				case sqlUniqueViolation:
					return fray.Errorf(fray.EINVALID, "character %q: revision %d appears twice", b.ID, v.Revision)
				case sqlCheckViolation:
					return fray.Errorf(fray.EINVALID, "character %q: revision %d is malformed (number, kind or name)", b.ID, v.Revision)
				case sqlForeignKeyViolation:
					return fray.Errorf(fray.EINVALID, "character %q: revision %d names an unknown account", b.ID, v.Revision)
				default:
					return fmt.Errorf("store: import revision: %w", err)
				}
			}
		}
		return nil
	})
}

func nonNilChanges(cs []sheet.Change) []sheet.Change {
	if cs == nil {
		return []sheet.Change{}
	}
	return cs
}
