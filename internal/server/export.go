package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
)

// exportFormat names the JSON export's format; exportVersion its version.
const (
	exportFormat  = "fray-encounter-log"
	exportVersion = 1
)

// encounterExport is the JSON export of an encounter's log for one viewer.
type encounterExport struct {
	Format    string            `json:"format"`
	Version   int               `json:"version"`
	Exported  time.Time         `json:"exported"`
	Encounter exportedEncounter `json:"encounter"`
	Viewer    engine.Viewer     `json:"viewer"`
	// Setup and Initial (the setup document and the state before the first
	// event) are the GM's only: they describe hidden combatants.
	Setup      json.RawMessage    `json:"setup,omitempty"`
	Initial    json.RawMessage    `json:"initial,omitempty"`
	Sides      []engine.Side      `json:"sides"`
	Combatants []engine.Combatant `json:"combatants"`
	// Undone lists the seqs a rewind undid; they stay in Events.
	Undone []int64        `json:"undone"`
	Events []engine.Event `json:"events"`
}

type exportedEncounter struct {
	ID       string          `json:"id"`
	Campaign string          `json:"campaign"`
	Name     string          `json:"name"`
	Ruleset  string          `json:"ruleset"`
	Status   engine.Status   `json:"status"`
	Round    int             `json:"round"`
	Seq      int64           `json:"seq"`
	Outcome  *engine.Outcome `json:"outcome,omitempty"`
	Created  time.Time       `json:"created"`
	Updated  time.Time       `json:"updated"`
}

// handleExportJSON downloads the encounter's log as the viewer may see it:
// GET /api/encounters/{id}/export.json.
func (s *Server) handleExportJSON(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r)
	if !ok {
		return
	}
	doc, err := s.export(r, e)
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", attachment(exportFilename(doc.Encounter.Name, e.id, "json")))
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, doc)
}

// export gathers what the viewer of e may take home of its history.
func (s *Server) export(r *http.Request, e viewedEncounter) (encounterExport, error) {
	ctx := r.Context()
	rec, err := s.store.Encounter(ctx, e.id)
	if err != nil {
		return encounterExport{}, err
	}
	all, err := s.store.Events(ctx, e.id, 0, 0)
	if err != nil {
		return encounterExport{}, err
	}
	b := e.state.Core()
	view := engine.Project(e.ruleset, e.state, e.viewer)
	doc := encounterExport{
		Format: exportFormat, Version: exportVersion, Exported: time.Now().UTC(),
		Encounter: exportedEncounter{ID: e.id, Campaign: e.campaign, Name: b.Name, Ruleset: b.Ruleset, Status: b.Status,
			Round: b.Round, Seq: b.Seq, Outcome: b.Outcome, Created: rec.CreatedAt.UTC(), Updated: rec.UpdatedAt.UTC()},
		Viewer: e.viewer, Sides: view.Sides, Combatants: view.Combatants,
		Events: engine.FilterEvents(e.state, e.viewer, all), Undone: []int64{},
	}
	if doc.Combatants == nil {
		doc.Combatants = []engine.Combatant{}
	}
	if e.viewer.GM {
		doc.Setup, doc.Initial = rec.Setup, rec.Initial
	}
	for seq := range engine.Undone(doc.Events) {
		doc.Undone = append(doc.Undone, seq)
	}
	slices.Sort(doc.Undone)
	return doc, nil
}
