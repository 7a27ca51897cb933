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

// Encounter is an encounter's row: its setup and its initial state (at seq
// 0), both JSON. Its current state is the latest snapshot with the events
// after it folded in (LoadEncounter).
type Encounter struct {
	ID         string
	CampaignID string
	Name       string
	Ruleset    string
	Status     string
	Seq        int64 // seq of the encounter's last event; 0 before any
	Setup      []byte
	Initial    []byte
	CreatedAt  time.Time
	UpdatedAt  time.Time // when the last event was appended (or the status changed)
	// Access is the campaign's access version when the row was read (only
	// from [DB.Encounter]), see Appended.Access.
	Access int64
}

// CreateEncounter stores a new encounter. The caller supplies ID (from NewID),
// CampaignID, Name, Ruleset, Setup and Initial, the state at seq 0 (e.Seq
// is ignored); an empty Status means "setup".
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
	e.Seq = 0
	err = db.pool.QueryRow(ctx, `
		INSERT INTO encounters (id, campaign_id, name, ruleset, status, setup, initial_state)
		VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7)
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

// Encounter returns the encounter with id, setup and initial state
// included; ENOTFOUND when there is none or id is not a UUID.
func (db *DB) Encounter(ctx context.Context, id string) (Encounter, error) {
	if !validUUID(id) {
		return Encounter{}, encounterNotFound(id)
	}
	var e Encounter
	err := db.pool.QueryRow(ctx, `
		SELECT e.id::text, e.campaign_id::text, e.name, e.ruleset, e.status, COALESCE(v.seq, 0), e.setup, e.initial_state,
			e.created_at, GREATEST(e.updated_at, v.created_at), c.access_version
		FROM encounters e JOIN campaigns c ON c.id = e.campaign_id
		LEFT JOIN LATERAL (`+lastEventSQL+`) v ON true
		WHERE e.id = $1::uuid`, id).
		Scan(&e.ID, &e.CampaignID, &e.Name, &e.Ruleset, &e.Status, &e.Seq,
			&e.Setup, &e.Initial, &e.CreatedAt, &e.UpdatedAt, &e.Access)
	if errors.Is(err, pgx.ErrNoRows) {
		return Encounter{}, encounterNotFound(id)
	}
	if err != nil {
		return Encounter{}, fmt.Errorf("store: encounter: %w", err)
	}
	return e, nil
}

// lastEventSQL is a LATERAL subquery: the seq and time of encounter e's
// last event, if any.
const lastEventSQL = `SELECT seq, created_at FROM events WHERE encounter_id = e.id ORDER BY seq DESC LIMIT 1`

// Encounters lists the encounters of a campaign, newest first, without their
// Setup and Initial. An unknown or malformed campaign id is ENOTFOUND.
func (db *DB) Encounters(ctx context.Context, campaignID string) ([]Encounter, error) {
	if !validUUID(campaignID) {
		return nil, campaignNotFound(campaignID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT e.id::text, e.campaign_id::text, e.name, e.ruleset, e.status, COALESCE(v.seq, 0),
			e.created_at, GREATEST(e.updated_at, v.created_at)
		FROM encounters e LEFT JOIN LATERAL (`+lastEventSQL+`) v ON true
		WHERE e.campaign_id = $1::uuid
		ORDER BY e.created_at DESC, e.id`, campaignID)
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
