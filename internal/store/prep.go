package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// Draft is an encounter being prepared: a setup document the GM edits.
type Draft struct {
	ID, CampaignID, Name, Ruleset string
	Setup                         []byte
	CreatedAt, UpdatedAt          time.Time
	// Undos and Redos are how many steps of its edit history can be
	// undone and redone (Draft fills them; UpdateDraft and StepDraft keep
	// the history).
	Undos, Redos int
}

// MaxDraftUndos is how many edits of a draft can be undone.
const MaxDraftUndos = 50

// StatBlock is a bestiary entry or a player character of a campaign.
type StatBlock struct {
	ID, CampaignID, Ruleset, Name string
	Stats                         []byte
	// Portrait is its picture's URL ("" for none), copied onto the
	// combatant when it is placed in a draft; set by SetPortrait.
	Portrait  string
	UpdatedAt time.Time
}

// Stat block kinds: the table each lives in.
const (
	KindBestiary  = "bestiary"
	KindCharacter = "characters"
)

func draftNotFound(id string) error { return fray.Errorf(fray.ENOTFOUND, "draft %q not found", id) }

// CreateDraft stores a new draft and returns it with its id.
func (db *DB) CreateDraft(ctx context.Context, d Draft) (Draft, error) {
	if !validUUID(d.CampaignID) {
		return Draft{}, campaignNotFound(d.CampaignID)
	}
	name, err := checkName("draft", d.Name)
	if err != nil {
		return Draft{}, err
	}
	if !json.Valid(d.Setup) {
		return Draft{}, fray.Errorf(fray.EINVALID, "draft setup is not JSON")
	}
	d.ID, d.Name = NewID(), name
	err = db.pool.QueryRow(ctx, `
		INSERT INTO drafts (id, campaign_id, name, ruleset, setup) VALUES ($1::uuid, $2::uuid, $3, $4, $5)
		RETURNING created_at, updated_at`, d.ID, d.CampaignID, d.Name, d.Ruleset, d.Setup).Scan(&d.CreatedAt, &d.UpdatedAt)
	if pgCode(err) == sqlForeignKeyViolation {
		return Draft{}, campaignNotFound(d.CampaignID)
	}
	if err != nil {
		return Draft{}, fmt.Errorf("store: create draft: %w", err)
	}
	return d, nil
}

// Draft returns the draft with id; ENOTFOUND when there is none.
func (db *DB) Draft(ctx context.Context, id string) (Draft, error) {
	if !validUUID(id) {
		return Draft{}, draftNotFound(id)
	}
	var d Draft
	err := db.pool.QueryRow(ctx, `SELECT id::text, campaign_id::text, name, ruleset, setup, created_at, updated_at,
			(SELECT count(*) FILTER (WHERE NOT redo) FROM draft_steps WHERE draft_id = d.id),
			(SELECT count(*) FILTER (WHERE redo) FROM draft_steps WHERE draft_id = d.id)
		FROM drafts d WHERE id = $1::uuid`, id).Scan(&d.ID, &d.CampaignID, &d.Name, &d.Ruleset, &d.Setup, &d.CreatedAt, &d.UpdatedAt,
		&d.Undos, &d.Redos)
	if errors.Is(err, pgx.ErrNoRows) {
		return Draft{}, draftNotFound(id)
	}
	if err != nil {
		return Draft{}, fmt.Errorf("store: draft: %w", err)
	}
	return d, nil
}

// Drafts lists a campaign's drafts, newest first, without their setups.
func (db *DB) Drafts(ctx context.Context, campaignID string) ([]Draft, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `SELECT id::text, campaign_id::text, name, ruleset, created_at, updated_at
		FROM drafts WHERE campaign_id = $1::uuid ORDER BY created_at DESC, id`, campaignID)
	ds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Draft, error) {
		var d Draft
		return d, r.Scan(&d.ID, &d.CampaignID, &d.Name, &d.Ruleset, &d.CreatedAt, &d.UpdatedAt)
	})
	if err != nil {
		return nil, fmt.Errorf("store: drafts: %w", err)
	}
	return ds, nil
}

// UpdateDraft replaces a draft's name and setup. The draft as it was
// becomes the top of its undo stack (the oldest step beyond
// MaxDraftUndos is forgotten) and its redo stack is cleared, unless
// nothing changed.
func (db *DB) UpdateDraft(ctx context.Context, id, name string, setup []byte) error {
	if !validUUID(id) {
		return draftNotFound(id)
	}
	name, err := checkName("draft", name)
	if err != nil {
		return err
	}
	if !json.Valid(setup) {
		return fray.Errorf(fray.EINVALID, "draft setup is not JSON")
	}
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var same bool
		err := tx.QueryRow(ctx, `SELECT name = $2 AND setup = $3::jsonb FROM drafts WHERE id = $1::uuid FOR UPDATE`,
			id, name, setup).Scan(&same)
		if errors.Is(err, pgx.ErrNoRows) {
			return draftNotFound(id)
		}
		if err != nil || same {
			return err
		}
		batch := &pgx.Batch{}
		batch.Queue(`INSERT INTO draft_steps (draft_id, redo, name, setup) SELECT id, false, name, setup FROM drafts WHERE id = $1::uuid`, id)
		batch.Queue(`DELETE FROM draft_steps WHERE draft_id = $1::uuid AND redo`, id)
		batch.Queue(`DELETE FROM draft_steps WHERE draft_id = $1::uuid AND NOT redo AND seq <= (
			SELECT seq FROM draft_steps WHERE draft_id = $1::uuid AND NOT redo ORDER BY seq DESC OFFSET $2 LIMIT 1)`, id, MaxDraftUndos)
		batch.Queue(`UPDATE drafts SET name = $2, setup = $3, updated_at = now() WHERE id = $1::uuid`, id, name, setup)
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil && !isFrayError(err) {
		return fmt.Errorf("store: update draft: %w", err)
	}
	return err
}

// StepDraft undoes the draft's last edit (redo false) or redoes its last
// undo (redo true): the draft takes the top of that stack and what it was
// goes on top of the other. EINVALID when there is nothing to undo or
// redo.
func (db *DB) StepDraft(ctx context.Context, id string, redo bool) error {
	if !validUUID(id) {
		return draftNotFound(id)
	}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var found bool
		err := tx.QueryRow(ctx, `SELECT true FROM drafts WHERE id = $1::uuid FOR UPDATE`, id).Scan(&found)
		if errors.Is(err, pgx.ErrNoRows) {
			return draftNotFound(id)
		}
		if err != nil {
			return err
		}
		var seq int64
		var name string
		var setup []byte
		err = tx.QueryRow(ctx, `SELECT seq, name, setup FROM draft_steps WHERE draft_id = $1::uuid AND redo = $2
			ORDER BY seq DESC LIMIT 1`, id, redo).Scan(&seq, &name, &setup)
		if errors.Is(err, pgx.ErrNoRows) {
			if redo {
				return fray.Errorf(fray.EINVALID, "there is nothing to redo")
			}
			return fray.Errorf(fray.EINVALID, "there is nothing to undo")
		}
		if err != nil {
			return err
		}
		batch := &pgx.Batch{}
		batch.Queue(`DELETE FROM draft_steps WHERE draft_id = $1::uuid AND seq = $2`, id, seq)
		batch.Queue(`INSERT INTO draft_steps (draft_id, redo, name, setup) SELECT id, $2, name, setup FROM drafts WHERE id = $1::uuid`, id, !redo)
		batch.Queue(`UPDATE drafts SET name = $2, setup = $3, updated_at = now() WHERE id = $1::uuid`, id, name, setup)
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil && !isFrayError(err) {
		return fmt.Errorf("store: step draft: %w", err)
	}
	return err
}

// isFrayError is whether err already says what went wrong with a code.
func isFrayError(err error) bool {
	var fe *fray.Error
	return errors.As(err, &fe)
}

// DeleteDraft removes a draft.
func (db *DB) DeleteDraft(ctx context.Context, id string) error {
	if !validUUID(id) {
		return draftNotFound(id)
	}
	if _, err := db.pool.Exec(ctx, `DELETE FROM drafts WHERE id = $1::uuid`, id); err != nil {
		return fmt.Errorf("store: delete draft: %w", err)
	}
	return nil
}

func statTable(kind string) (string, error) {
	switch kind {
	case KindBestiary:
		return "bestiary", nil
	case KindCharacter:
		return "characters", nil
	}
	return "", fmt.Errorf("store: unknown stat block kind %q", kind)
}

func statNotFound(kind, id string) error {
	if kind == KindCharacter {
		return fray.Errorf(fray.ENOTFOUND, "character %q not found", id)
	}
	return fray.Errorf(fray.ENOTFOUND, "bestiary entry %q not found", id)
}

func checkStatBlock(b *StatBlock) error {
	name, err := checkName("stat block", b.Name)
	if err != nil {
		return err
	}
	b.Name = name
	if n := len(b.ID); n == 0 || n > 64 || !validText(b.ID) {
		return fray.Errorf(fray.EINVALID, "an id has 1–64 characters")
	}
	if !json.Valid(b.Stats) {
		return fray.Errorf(fray.EINVALID, "stats are not JSON")
	}
	return nil
}

// StatBlocks lists a campaign's bestiary entries or characters by name.
func (db *DB) StatBlocks(ctx context.Context, kind, campaignID string) ([]StatBlock, error) {
	table, err := statTable(kind)
	if err != nil {
		return nil, err
	}
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `SELECT id, campaign_id::text, ruleset, name, stats, portrait, updated_at FROM `+table+`
		WHERE campaign_id = $1::uuid ORDER BY lower(name), id`, campaignID)
	bs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (StatBlock, error) {
		var b StatBlock
		return b, r.Scan(&b.ID, &b.CampaignID, &b.Ruleset, &b.Name, &b.Stats, &b.Portrait, &b.UpdatedAt)
	})
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", table, err)
	}
	return bs, nil
}

// StatBlock returns one bestiary entry or character.
func (db *DB) StatBlock(ctx context.Context, kind, campaignID, id string) (StatBlock, error) {
	table, err := statTable(kind)
	if err != nil {
		return StatBlock{}, err
	}
	if !validUUID(campaignID) {
		return StatBlock{}, campaignNotFound(campaignID)
	}
	var b StatBlock
	err = db.pool.QueryRow(ctx, `SELECT id, campaign_id::text, ruleset, name, stats, portrait, updated_at FROM `+table+`
		WHERE campaign_id = $1::uuid AND id = $2`, campaignID, id).Scan(&b.ID, &b.CampaignID, &b.Ruleset, &b.Name, &b.Stats, &b.Portrait, &b.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return StatBlock{}, statNotFound(kind, id)
	}
	if err != nil {
		return StatBlock{}, fmt.Errorf("store: %s: %w", table, err)
	}
	return b, nil
}

// SaveStatBlocks inserts or replaces stat blocks, all or none, in one
// transaction. With create set an id already in use is ECONFLICT. A
// character's change is recorded as a revision (SaveCharacter does the same
// with who made it and what changed).
func (db *DB) SaveStatBlocks(ctx context.Context, kind string, create bool, bs []StatBlock) error {
	table, err := statTable(kind)
	if err != nil {
		return err
	}
	for i := range bs {
		if !validUUID(bs[i].CampaignID) {
			return campaignNotFound(bs[i].CampaignID)
		}
		if err := checkStatBlock(&bs[i]); err != nil {
			return err
		}
	}
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		for _, b := range bs {
			if kind == KindCharacter { // versioned: see characters.go
				if _, err := saveCharacter(ctx, tx, CharacterSave{Block: b, Create: create, Upsert: !create}); err != nil {
					return err
				}
				continue
			}
			if err := checkPortrait(ctx, tx, b.CampaignID, b.Portrait); err != nil {
				return err
			}
			// A block saved without a portrait keeps the one it has.
			q := `INSERT INTO ` + table + ` (id, campaign_id, ruleset, name, stats, portrait) VALUES ($1, $2::uuid, $3, $4, $5, $6)`
			if !create {
				q += ` ON CONFLICT (campaign_id, id) DO UPDATE SET ruleset = EXCLUDED.ruleset, name = EXCLUDED.name,
					stats = EXCLUDED.stats, portrait = CASE WHEN EXCLUDED.portrait = '' THEN ` + table + `.portrait ELSE EXCLUDED.portrait END, updated_at = now()`
			}
			_, err := tx.Exec(ctx, q, b.ID, b.CampaignID, b.Ruleset, b.Name, b.Stats, b.Portrait)
			switch pgCode(err) {
			case "":
			case sqlUniqueViolation:
				return fray.Errorf(fray.ECONFLICT, "%q is already in use; choose another name", b.ID)
			case sqlForeignKeyViolation:
				return campaignNotFound(b.CampaignID)
			default:
				return fmt.Errorf("store: save %s: %w", table, err)
			}
		}
		return nil
	})
}

// SetPortrait sets (or, with "", clears) the portrait of a bestiary entry
// or character: a picture's URL, which the caller has checked names one of
// the campaign's pictures.
func (db *DB) SetPortrait(ctx context.Context, kind, campaignID, id, portrait string) error {
	table, err := statTable(kind)
	if err != nil {
		return err
	}
	if !validUUID(campaignID) {
		return campaignNotFound(campaignID)
	}
	if err := checkPortrait(ctx, db.pool, campaignID, portrait); err != nil {
		return err
	}
	tag, err := db.pool.Exec(ctx, `UPDATE `+table+` SET portrait = $3, updated_at = now() WHERE campaign_id = $1::uuid AND id = $2`, campaignID, id, portrait)
	if pgCode(err) == sqlCheckViolation {
		return fray.Errorf(fray.EINVALID, "a portrait must be an uploaded picture's URL, not %q", portrait)
	}
	if err != nil {
		return fmt.Errorf("store: set portrait: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return statNotFound(kind, id)
	}
	return nil
}

// checkPortrait refuses a portrait that is not one of the campaign's
// pictures (by URL, /assets/<sha-256>); "" is none.
func checkPortrait(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, campaignID, portrait string) error {
	if portrait == "" {
		return nil
	}
	id, ok := strings.CutPrefix(portrait, "/assets/")
	var held bool
	if ok {
		if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM assets WHERE campaign_id = $1::uuid AND id = $2)`, campaignID, id).Scan(&held); err != nil {
			return fmt.Errorf("store: portrait: %w", err)
		}
	}
	if !held {
		return fray.Errorf(fray.EINVALID, "the portrait %.80q is not one of this campaign's pictures", portrait)
	}
	return nil
}

// DeleteStatBlock removes a bestiary entry or character.
func (db *DB) DeleteStatBlock(ctx context.Context, kind, campaignID, id string) error {
	table, err := statTable(kind)
	if err != nil {
		return err
	}
	if !validUUID(campaignID) {
		return campaignNotFound(campaignID)
	}
	if _, err := db.pool.Exec(ctx, `DELETE FROM `+table+` WHERE campaign_id = $1::uuid AND id = $2`, campaignID, id); err != nil {
		return fmt.Errorf("store: delete %s: %w", table, err)
	}
	return nil
}

// DraftCampaign returns the campaign a draft belongs to.
func (db *DB) DraftCampaign(ctx context.Context, id string) (string, error) {
	d, err := db.Draft(ctx, id)
	return d.CampaignID, err
}
