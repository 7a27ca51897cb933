// Package prep creates encounters: it validates setup documents (the JSON
// import format, see examples/encounters) and stores their initial state.
package prep

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"path"
	"slices"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// MaxSetupBytes bounds an imported encounter document.
const MaxSetupBytes = 1 << 20

// Store is the persistence prep needs.
type Store interface {
	CreateCampaign(ctx context.Context, name string) (store.Campaign, error)
	Campaign(ctx context.Context, id string) (store.Campaign, error)
	CreateEncounter(ctx context.Context, e store.Encounter) (store.Encounter, error)
}

// DecodeSetup parses a setup document strictly: unknown fields are errors,
// so a misspelt key never silently becomes a default.
func DecodeSetup(data []byte) (engine.Setup, error) {
	var s engine.Setup
	if len(data) > MaxSetupBytes {
		return s, fray.Errorf(fray.ETOOLARGE, "encounter file is larger than %d bytes", MaxSetupBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return engine.Setup{}, fray.Errorf(fray.EINVALID, "encounter file is not a valid setup document: %v", err)
	}
	if dec.More() {
		return engine.Setup{}, fray.Errorf(fray.EINVALID, "encounter file has data after the setup document")
	}
	return s, nil
}

// Prepared is a validated setup document with its initial state, ready to store.
type Prepared struct {
	ID      string
	Setup   engine.Setup
	Ruleset engine.Ruleset
	State   engine.State
}

// Prepare validates a setup document and builds the encounter's initial
// state without storing anything.
func Prepare(rules *engine.Registry, data []byte) (Prepared, error) {
	setup, err := DecodeSetup(data)
	if err != nil {
		return Prepared{}, err
	}
	rs, err := rules.Get(setup.Ruleset)
	if err != nil {
		return Prepared{}, err
	}
	id := store.NewID()
	st, err := engine.NewEncounter(rs, id, setup)
	if err != nil {
		return Prepared{}, err
	}
	return Prepared{ID: id, Setup: setup, Ruleset: rs, State: st}, nil
}

// Save stores a prepared encounter in campaignID, in status setup at seq 0.
func Save(ctx context.Context, db Store, campaignID string, p Prepared) (store.Encounter, error) {
	if _, err := db.Campaign(ctx, campaignID); err != nil {
		return store.Encounter{}, err
	}
	snapshot, err := engine.Snapshot(p.State)
	if err != nil {
		return store.Encounter{}, err
	}
	setupJSON, err := json.Marshal(p.Setup)
	if err != nil {
		return store.Encounter{}, err
	}
	return db.CreateEncounter(ctx, store.Encounter{
		ID: p.ID, CampaignID: campaignID, Name: p.Setup.Name, Ruleset: p.Ruleset.ID(),
		Status: string(p.State.Core().Status), Setup: setupJSON, Initial: snapshot, State: snapshot,
	})
}

// Import validates a setup document and stores it as a new encounter of
// campaignID. Nothing is stored when it is invalid.
func Import(ctx context.Context, db Store, rules *engine.Registry, campaignID string, data []byte) (store.Encounter, error) {
	p, err := Prepare(rules, data)
	if err != nil {
		return store.Encounter{}, err
	}
	return Save(ctx, db, campaignID, p)
}

// Example is one shipped example encounter.
type Example struct {
	Name string // file name without extension, e.g. "sw-zones-bridge"
	Data []byte
}

// Examples returns the shipped example encounters, sorted by name.
func Examples() ([]Example, error) {
	files, err := fs.Glob(examples.Encounters, "encounters/*.json")
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	out := make([]Example, 0, len(files))
	for _, f := range files {
		data, err := fs.ReadFile(examples.Encounters, f)
		if err != nil {
			return nil, err
		}
		out = append(out, Example{Name: path.Base(f)[:len(path.Base(f))-len(".json")], Data: data})
	}
	return out, nil
}

// SeedDemo creates a demo campaign holding every example encounter.
func SeedDemo(ctx context.Context, db Store, rules *engine.Registry) (store.Campaign, []store.Encounter, error) {
	exs, err := Examples()
	if err != nil {
		return store.Campaign{}, nil, err
	}
	c, err := db.CreateCampaign(ctx, "Demo campaign")
	if err != nil {
		return store.Campaign{}, nil, err
	}
	var encs []store.Encounter
	for _, ex := range exs {
		e, err := Import(ctx, db, rules, c.ID, ex.Data)
		if err != nil {
			return c, encs, fray.Errorf(fray.ErrorCode(err), "example %s: %s", ex.Name, fray.ErrorMessage(err))
		}
		encs = append(encs, e)
	}
	return c, encs, nil
}
