package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Encounter is an encounter's row: its setup, its initial state (at seq 0)
// and its current state at Seq, all JSON.
type Encounter struct {
	ID         string
	CampaignID string
	Name       string
	Ruleset    string
	Status     string
	Seq        int64 // seq of the last event folded into State; 0 before any
	Setup      []byte
	Initial    []byte
	State      []byte
	CreatedAt  time.Time
	UpdatedAt  time.Time
	// Access is the campaign's access version when the row was read (only
	// from [DB.Encounter]), see Appended.Access.
	Access int64
}

// CreateEncounter stores a new encounter. The caller supplies ID (from NewID),
// CampaignID, Name, Ruleset, Setup and Initial; State starts as Initial at
// seq 0 (e.State and e.Seq are ignored) and an empty Status means "setup".
// It returns the stored row. An unknown campaign is ENOTFOUND; a bad name,
// id or JSON is EINVALID; an ID already in use is ECONFLICT.
func (db *DB) CreateEncounter(ctx context.Context, e Encounter) (Encounter, error) {
	if !validUUID(e.ID) {
		return Encounter{}, fray.Errorf(fray.EINVALID, "encounter id %q is not a UUID", e.ID)
	}
	if !validUUID(e.CampaignID) {
		return Encounter{}, campaignNotFound(e.CampaignID)
	}
	name, err := checkName("encounter", e.Name)
	if err != nil {
		return Encounter{}, err
	}
	e.Name = name
	if e.Ruleset == "" {
		return Encounter{}, fray.Errorf(fray.EINVALID, "encounter has no ruleset")
	}
	if e.Status == "" {
		e.Status = string(engine.StatusSetup)
	}
	if !json.Valid(e.Setup) {
		return Encounter{}, fray.Errorf(fray.EINVALID, "encounter setup is not JSON")
	}
	if !json.Valid(e.Initial) {
		return Encounter{}, fray.Errorf(fray.EINVALID, "encounter initial state is not JSON")
	}
	e.Seq, e.State = 0, e.Initial
	err = db.pool.QueryRow(ctx, `
		INSERT INTO encounters (id, campaign_id, name, ruleset, status, seq, setup, initial_state, state)
		VALUES ($1::uuid, $2::uuid, $3, $4, $5, 0, $6, $7, $7)
		RETURNING id::text, campaign_id::text, created_at, updated_at`,
		e.ID, e.CampaignID, e.Name, e.Ruleset, e.Status, e.Setup, e.Initial).
		Scan(&e.ID, &e.CampaignID, &e.CreatedAt, &e.UpdatedAt)
	switch pgCode(err) {
	case "":
	case sqlForeignKeyViolation:
		return Encounter{}, campaignNotFound(e.CampaignID)
	case sqlUniqueViolation:
		return Encounter{}, fray.Errorf(fray.ECONFLICT, "encounter %s already exists", e.ID)
	}
	if err != nil {
		return Encounter{}, fmt.Errorf("store: create encounter: %w", err)
	}
	return e, nil
}

// Encounter returns the encounter with id, states included; ENOTFOUND when
// there is none or id is not a UUID.
func (db *DB) Encounter(ctx context.Context, id string) (Encounter, error) {
	if !validUUID(id) {
		return Encounter{}, encounterNotFound(id)
	}
	var e Encounter
	err := db.pool.QueryRow(ctx, `
		SELECT e.id::text, e.campaign_id::text, e.name, e.ruleset, e.status, e.seq, e.setup, e.initial_state, e.state,
			e.created_at, e.updated_at, c.access_version
		FROM encounters e JOIN campaigns c ON c.id = e.campaign_id WHERE e.id = $1::uuid`, id).
		Scan(&e.ID, &e.CampaignID, &e.Name, &e.Ruleset, &e.Status, &e.Seq,
			&e.Setup, &e.Initial, &e.State, &e.CreatedAt, &e.UpdatedAt, &e.Access)
	if errors.Is(err, pgx.ErrNoRows) {
		return Encounter{}, encounterNotFound(id)
	}
	if err != nil {
		return Encounter{}, fmt.Errorf("store: encounter: %w", err)
	}
	return e, nil
}

// Encounters lists the encounters of a campaign, newest first, without their
// Setup, Initial and State. An unknown or malformed campaign id is ENOTFOUND.
func (db *DB) Encounters(ctx context.Context, campaignID string) ([]Encounter, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT id::text, campaign_id::text, name, ruleset, status, seq, created_at, updated_at
		FROM encounters WHERE campaign_id = $1::uuid
		ORDER BY created_at DESC, id`, campaignID)
	es, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Encounter, error) {
		var e Encounter
		err := r.Scan(&e.ID, &e.CampaignID, &e.Name, &e.Ruleset, &e.Status, &e.Seq, &e.CreatedAt, &e.UpdatedAt)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: encounters: %w", err)
	}
	if len(es) == 0 {
		ok, err := db.campaignExists(ctx, campaignID)
		if err != nil {
			return nil, fmt.Errorf("store: encounters: %w", err)
		}
		if !ok {
			return nil, campaignNotFound(campaignID)
		}
	}
	return es, nil
}

func encounterNotFound(id string) error {
	return fray.Errorf(fray.ENOTFOUND, "encounter %q not found", id)
}

func (db *DB) encounterExists(ctx context.Context, id string) (bool, error) {
	var ok bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM encounters WHERE id = $1::uuid)`, id).Scan(&ok)
	return ok, err
}
