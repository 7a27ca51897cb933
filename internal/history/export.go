package history

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/proof"
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
	// Head and Chain are the hash chain of every event of the encounter,
	// those withheld from the viewer included (by digest only): what
	// `server verify` and the replay page's check read (docs/protocol.md,
	// "The chain in an export").
	Head  string            `json:"head"`
	Chain []proof.ChainLink `json:"chain"`
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
	if doc.Head, doc.Chain, err = s.chain(ctx, rd.ID, all, doc.Events); err != nil {
		return Export{}, err
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

// chain is the export's chain over all, the log, of which the viewer is
// given shown: an event shown as it is stored comes with its salt, so
// anyone can check it against its digest; one rewritten for the viewer or
// withheld, with its digest only.
func (s *Service) chain(ctx context.Context, id string, all, shown []engine.Event) (string, []proof.ChainLink, error) {
	chained, err := s.db.Chain(ctx, id, 0)
	if err != nil {
		return "", nil, err
	}
	if len(chained) > len(all) {
		chained = chained[:len(all)] // events appended since the log was read
	}
	if len(chained) != len(all) {
		return "", nil, fmt.Errorf("history: encounter %s has %d events but %d chained", id, len(all), len(chained))
	}
	links := make([]proof.Sealed, len(chained))
	for i, c := range chained {
		links[i] = proof.Sealed{Seq: c.Seq, Salt: c.Salt, Digest: c.Digest, Link: c.Link}
	}
	stored := make(map[int64]engine.Event, len(all))
	for _, ev := range all {
		stored[ev.Seq] = ev
	}
	whole := make(map[int64]bool, len(shown))
	for _, ev := range shown {
		a, errA := json.Marshal(ev)
		b, errB := json.Marshal(stored[ev.Seq])
		whole[ev.Seq] = errA == nil && errB == nil && bytes.Equal(a, b)
	}
	head := proof.Genesis(id)
	if len(links) > 0 {
		head = links[len(links)-1].Link
	}
	return head.String(), proof.ExportChain(links, func(seq int64) bool { return whole[seq] }), nil
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

// Head is the link of event Seq: the chain's head when the history had
// reached Seq. Pages keep the heads they showed, and warn when a later
// history no longer passes through one (docs/protocol.md, "Fingerprints").
type Head struct {
	Seq  int64  `json:"seq"`
	Link string `json:"link"`
}

// Heads returns the links of encounter id's events after seq after, in
// order, at most limit of them (0: all). Links tell nothing of the events:
// every viewer may have them all.
func (s *Service) Heads(ctx context.Context, id string, after int64, limit int) ([]Head, error) {
	chained, err := s.db.Chain(ctx, id, max(after, 0))
	if err != nil {
		return nil, err
	}
	if limit > 0 && len(chained) > limit {
		chained = chained[:limit]
	}
	out := make([]Head, len(chained))
	for i, c := range chained {
		out[i] = Head{Seq: c.Seq, Link: c.Link.String()}
	}
	return out, nil
}
