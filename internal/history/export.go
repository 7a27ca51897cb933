package history

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
)

// ExportFormat names the JSON export's format; ExportVersion its version.
const (
	ExportFormat  = "fray-encounter-log"
	ExportVersion = 1
)

// Export is an encounter's log as one viewer may take it home: the JSON
// export's document, which the Markdown report renders.
type Export struct {
	Format    string            `json:"format"`
	Version   int               `json:"version"`
	Exported  time.Time         `json:"exported"`
	Encounter ExportedEncounter `json:"encounter"`
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

// ExportedEncounter is the exported encounter's summary.
type ExportedEncounter struct {
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

// Export gathers what rd's viewer may take home of the encounter's history.
func (s *Service) Export(ctx context.Context, rd Reading) (Export, error) {
	rec, err := s.db.Encounter(ctx, rd.ID)
	if err != nil {
		return Export{}, err
	}
	all, err := s.db.Events(ctx, rd.ID, 0, 0)
	if err != nil {
		return Export{}, err
	}
	b := rd.State.Core()
	view := engine.Project(rd.Ruleset, rd.State, rd.Viewer)
	doc := Export{
		Format: ExportFormat, Version: ExportVersion, Exported: time.Now().UTC(),
		Encounter: ExportedEncounter{ID: rd.ID, Campaign: rd.Campaign, Name: b.Name, Ruleset: b.Ruleset, Status: b.Status,
			Round: b.Round, Seq: b.Seq, Outcome: b.Outcome, Created: rec.CreatedAt.UTC(), Updated: rec.UpdatedAt.UTC()},
		Viewer: rd.Viewer, Sides: view.Sides, Combatants: view.Combatants,
		Events: engine.FilterEvents(rd.State, rd.Viewer, all), Undone: []int64{},
	}
	if doc.Combatants == nil {
		doc.Combatants = []engine.Combatant{}
	}
	if rd.Viewer.GM {
		doc.Setup, doc.Initial = rec.Setup, rec.Initial
	}
	for seq := range engine.Undone(doc.Events) {
		doc.Undone = append(doc.Undone, seq)
	}
	slices.Sort(doc.Undone)
	return doc, nil
}

// Filename is an export's download name: fray-<encounter name>-<id
// prefix>.<ext>.
func (doc Export) Filename(ext string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(doc.Encounter.Name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	base := strings.TrimSuffix(b.String(), "-")
	if base == "" {
		base = "encounter"
	}
	id := doc.Encounter.ID
	if len(id) > 8 {
		id = id[:8]
	}
	return "fray-" + base + "-" + id + "." + ext
}
