// Package prep creates encounters: it validates setup documents (the JSON
// import format, see examples/encounters) and stores their initial state.
package prep

import (
	"context"
	"encoding/json"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is the persistence creating an encounter needs; *store.DB
// provides it.
type Store interface {
	Campaign(ctx context.Context, id string) (store.Campaign, error)
	CreateEncounter(ctx context.Context, e store.Encounter) (store.Encounter, error)
	CharacterStore   // the player characters' sheets (TakeCharacters)
	CharacterCreator // new sheets for the others (AdoptCharacters)
}

// Prepared is a validated setup document with its initial state, ready to store.
type Prepared struct {
	ID      string
	Setup   engine.Setup
	Ruleset engine.Ruleset
	State   engine.State
}

// Prepare validates a setup document (ReadSetup) and builds the encounter's initial
// state without storing anything.
func Prepare(rules *engine.Registry, data []byte) (Prepared, error) {
	setup, err := ReadSetup(rules, data)
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
// The player characters take the stats of the campaign's characters first
// (TakeCharacters); those the campaign has no sheet for yet get one
// (AdoptCharacters).
func Save(ctx context.Context, db Store, campaignID string, p Prepared) (store.Encounter, error) {
	if _, err := db.Campaign(ctx, campaignID); err != nil {
		return store.Encounter{}, err
	}
	taken, err := TakeCharacters(ctx, db, campaignID, &p.Setup)
	if err != nil {
		return store.Encounter{}, err
	}
	if len(taken) > 0 {
		if p.State, err = engine.NewEncounter(p.Ruleset, p.ID, p.Setup); err != nil {
			return store.Encounter{}, err
		}
	}
	snapshot, err := engine.Snapshot(p.State)
	if err != nil {
		return store.Encounter{}, err
	}
	setupJSON, err := json.Marshal(p.Setup)
	if err != nil {
		return store.Encounter{}, err
	}
	e, err := db.CreateEncounter(ctx, store.Encounter{
		ID: p.ID, CampaignID: campaignID, Name: p.Setup.Name, Ruleset: p.Ruleset.ID(),
		Status: string(p.State.Core().Status), Setup: setupJSON, Initial: snapshot,
	})
	if err != nil {
		return e, err
	}
	return e, AdoptCharacters(ctx, db, e, p.Setup, taken)
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
type Example = examples.Example

// Examples returns the shipped example encounters, sorted by name.
func Examples() ([]Example, error) { return examples.All() }

// Imported is an example encounter as stored, with its player characters.
type Imported struct {
	store.Encounter
	PCs []string
}

// ImportExamples adds every shipped example encounter to campaignID.
func ImportExamples(ctx context.Context, db Store, rules *engine.Registry, campaignID string) ([]Imported, error) {
	exs, err := Examples()
	if err != nil {
		return nil, err
	}
	var out []Imported
	for _, ex := range exs {
		p, err := Prepare(rules, ex.Data)
		if err != nil {
			return out, fray.Errorf(fray.ErrorCode(err), "example %s: %s", ex.Name, fray.ErrorMessage(err))
		}
		e, err := Save(ctx, db, campaignID, p)
		if err != nil {
			return out, err
		}
		imp := Imported{Encounter: e}
		for _, c := range p.State.Core().Combatants {
			if c.PC {
				imp.PCs = append(imp.PCs, c.ID)
			}
		}
		out = append(out, imp)
	}
	return out, nil
}

// ExampleNamed returns the shipped example with that file name.
func ExampleNamed(name string) (Example, error) {
	exs, err := Examples()
	if err != nil {
		return Example{}, err
	}
	for _, ex := range exs {
		if ex.Name == name {
			return ex, nil
		}
	}
	return Example{}, fray.Errorf(fray.ENOTFOUND, "no example encounter %q", name)
}
