// Package carry returns a fight's lasting results to the campaign. When an
// encounter ends, its Summary shows the GM, per player character, what the
// fight did to the values its ruleset carries (sheet.Carrier) and what
// the character sheet would become; Confirm writes the GM's decisions into
// the campaign's characters as revisions linked to the encounter.
//
// A decision replaces the encounter's previous decision for that character
// as a whole (sheet.ProposeCarry undoes what the previous one applied), so
// confirming again changes nothing, and confirming after a rewind and a new
// end carries the new result only.
package carry

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
)

// Store is the persistence carry needs; *store.DB provides it.
type Store interface {
	Encounter(ctx context.Context, id string) (store.Encounter, error)
	play.HistoryStore // the encounter's current state: its latest snapshot and the events since
	Characters(ctx context.Context, campaignID string) ([]store.Character, error)
	CarryOvers(ctx context.Context, encounterID string) ([]store.CarryOver, error)
	DecideCarryOver(ctx context.Context, encounterID string, seq int64, ds []store.CarryDecision) ([]store.CarryOver, error)
}

// Service works out and records carry-overs.
type Service struct {
	db    Store
	rules *engine.Registry
}

// New returns a Service over db for the rulesets of rules.
func New(db Store, rules *engine.Registry) *Service { return &Service{db: db, rules: rules} }

// States of a character in a Summary.
const (
	// StateNew: the player character is not one of the campaign's
	// characters yet; confirming adds it with the carried values.
	StateNew = "new"
	// StatePending: no decision yet.
	StatePending = "pending"
	// StateChanged: decided on an earlier end; the encounter was reopened
	// and ended again since, so the result may differ.
	StateChanged = "changed"
	// StateConfirmed and StateSkipped: decided on this end.
	StateConfirmed = store.CarryConfirmed
	StateSkipped   = store.CarrySkipped
	// StateBlocked: cannot be carried (Problem says why).
	StateBlocked = "blocked"
)

// Summary is an encounter's carry-over as the GM reviews it.
type Summary struct {
	EncounterID, CampaignID, Name, Ruleset string
	Status                                 engine.Status
	// Seq is the encounter's seq the summary was worked out at; a
	// confirmation must name it.
	Seq int64
	// Fields are the values the ruleset carries; none when it carries
	// nothing.
	Fields     []sheet.CarryField
	Characters []Entry
}

// Finished reports whether the encounter has ended, so it can be carried.
func (s Summary) Finished() bool { return s.Status == engine.StatusFinished }

// Entry is one player character of the encounter.
type Entry struct {
	ID, Name string
	State    string
	// Problem says why the character cannot be carried (StateBlocked).
	Problem string
	// Revision is the campaign character's current revision (0 for new).
	Revision int
	// Start and End are the carried values in the fight: those the
	// encounter was prepared with and those it ended with.
	Start, End sheet.CarryValues
	// Current is the character sheet now; Base is Current with the
	// encounter's earlier decision undone (what skipping writes, within
	// bounds); Proposal is what confirming writes (Base plus the fight's
	// change).
	Current, Base, Proposal sheet.CarryValues
	// Changes lists Current → Proposal.
	Changes []sheet.Change
	// Invalid is the ruleset's objection to the proposal, when it has one
	// (the GM must edit the values before confirming).
	Invalid string
	// Decided is the encounter's last decision for the character, if any.
	Decided *store.CarryOver

	stats     json.RawMessage // the character's stats now (the setup's for new ones)
	character *store.Character
}

// Summary works out encounterID's carry-over for its player characters.
// It is available while the encounter runs too (as a preview); only a
// finished encounter can be confirmed.
func (s *Service) Summary(ctx context.Context, encounterID string) (Summary, error) {
	sum, _, err := s.summary(ctx, encounterID)
	return sum, err
}

func (s *Service) summary(ctx context.Context, encounterID string) (Summary, engine.Ruleset, error) {
	e, err := s.db.Encounter(ctx, encounterID)
	if err != nil {
		return Summary{}, nil, err
	}
	rs, err := s.rules.Get(e.Ruleset)
	if err != nil {
		return Summary{}, nil, err
	}
	st, err := play.Latest(ctx, s.db, rs, e.ID)
	if err != nil {
		return Summary{}, nil, err
	}
	var setup engine.Setup
	if err := json.Unmarshal(e.Setup, &setup); err != nil {
		return Summary{}, nil, fmt.Errorf("carry: encounter %s setup: %w", e.ID, err)
	}
	b := st.Core()
	sum := Summary{EncounterID: e.ID, CampaignID: e.CampaignID, Name: b.Name, Ruleset: rs.ID(), Status: b.Status, Seq: b.Seq}
	carrier, carries := rs.(sheet.Carrier)
	if carries {
		sum.Fields = carrier.CarryFields()
		if err := sheet.CheckCarryFields(sum.Fields); err != nil {
			return Summary{}, nil, fmt.Errorf("carry: ruleset %s: %w", rs.ID(), err)
		}
	}
	chars, err := s.db.Characters(ctx, e.CampaignID)
	if err != nil {
		return Summary{}, nil, err
	}
	byID := map[string]*store.Character{}
	for i := range chars {
		byID[chars[i].ID] = &chars[i]
	}
	decided, err := s.db.CarryOvers(ctx, e.ID)
	if err != nil {
		return Summary{}, nil, err
	}
	decision := map[string]*store.CarryOver{}
	for i := range decided {
		decision[decided[i].CharacterID] = &decided[i]
	}
	setupStats := map[string]json.RawMessage{}
	for _, c := range setup.Combatants {
		setupStats[c.ID] = c.Stats
	}
	for _, c := range b.Combatants {
		if !c.PC {
			continue
		}
		en := Entry{ID: c.ID, Name: c.Name, Decided: decision[c.ID], character: byID[c.ID]}
		switch ch := en.character; {
		case !carries:
			en.State, en.Problem = StateBlocked, fmt.Sprintf("the %s ruleset carries nothing from one encounter to the next", rs.ID())
		case ch != nil && ch.Ruleset != rs.ID():
			en.State, en.Problem = StateBlocked, fmt.Sprintf("the campaign's %s is a %s character, not %s", ch.Name, ch.Ruleset, rs.ID())
		}
		if en.State == StateBlocked {
			sum.Characters = append(sum.Characters, en)
			continue
		}
		confirmed := en.Decided != nil && en.Decided.Seq == b.Seq && en.Decided.Decision == store.CarryConfirmed
		if err := s.work(rs, carrier, st, setupStats[c.ID], confirmed, &en); err != nil {
			return Summary{}, nil, err
		}
		switch d := en.Decided; {
		case en.character == nil:
			en.State = StateNew
		case d == nil:
			en.State = StatePending
		case d.Seq != b.Seq:
			en.State = StateChanged
		default:
			en.State = d.Decision
		}
		sum.Characters = append(sum.Characters, en)
	}
	return sum, rs, nil
}

// work fills in an entry's values. Once confirmed for this end, the
// proposal is the sheet as it is (the confirmed values, possibly edited by
// the GM), so confirming again changes nothing.
func (s *Service) work(rs engine.Ruleset, carrier sheet.Carrier, st engine.State, setupStats json.RawMessage, confirmed bool, en *Entry) error {
	fields := carrier.CarryFields()
	var err error
	if en.Start, err = sheet.ReadCarried(fields, setupStats); err != nil {
		return fmt.Errorf("carry: %s's setup stats: %w", en.ID, err)
	}
	if en.End, err = sheet.CarryOutOf(carrier, st, en.ID, setupStats); err != nil {
		return fmt.Errorf("carry: %w", err)
	}
	en.Current, en.stats = en.Start, setupStats
	if ch := en.character; ch != nil {
		en.Revision, en.stats = ch.Revision, ch.Stats
		if en.Current, err = sheet.ReadCarried(fields, ch.Stats); err != nil {
			return fray.Errorf(fray.ErrorCode(err), "the campaign's %s: %s", ch.Name, fray.ErrorMessage(err))
		}
	}
	var prev sheet.CarryApplied
	if en.Decided != nil {
		prev = en.Decided.Applied
	}
	en.Base, en.Proposal = sheet.ProposeCarry(fields, en.Current, en.Start, en.End, prev)
	if confirmed {
		en.Proposal = maps.Clone(en.Current)
	}
	en.Changes = sheet.CarryChanges(fields, en.Current, en.Proposal)
	if _, err := sheetWith(rs, fields, en, en.Proposal); err != nil {
		en.Invalid = fray.ErrorMessage(err)
	}
	return nil
}

// sheetWith returns the character's stats with values written, checked by
// the ruleset's Derive when it has one.
func sheetWith(rs engine.Ruleset, fields []sheet.CarryField, en *Entry, values sheet.CarryValues) (json.RawMessage, error) {
	stats, err := sheet.WriteCarried(fields, en.stats, values)
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s: %s", en.Name, fray.ErrorMessage(err))
	}
	if d, ok := rs.(sheet.Deriver); ok {
		if _, err := d.Derive(stats); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s: %s", en.Name, fray.ErrorMessage(err))
		}
	}
	return stats, nil
}

// Decision is the GM's decision for one character.
type Decision struct {
	Character string
	// Skip carries nothing of this encounter to the character (undoing
	// what an earlier decision of the encounter carried).
	Skip bool
	// Values are the character's carried values after the carry-over, by
	// path; paths left out take the summary's proposal. Not with Skip.
	Values map[string]any
}

// User is who decides.
type User struct{ ID, Name string }

// Outcome is what a decision did.
type Outcome struct {
	Character string `json:"character"`
	Decision  string `json:"decision"` // "confirmed" or "skipped"
	// Revision is the character's revision after the decision (0 for a
	// new character left out).
	Revision int `json:"revision"`
	// Changed reports whether the character's stats changed.
	Changed bool           `json:"changed"`
	Changes []sheet.Change `json:"changes"`
}

// Confirm records the GM's decisions on encounterID's carry-over, all or
// none. seq is the Summary.Seq the GM reviewed: if the encounter moved on
// (a rewind, more play) it is ECONFLICT. The encounter must be finished
// (EILLEGAL). A decision equal to the one already recorded for this end
// changes nothing.
func (s *Service) Confirm(ctx context.Context, encounterID string, seq int64, by User, ds []Decision) ([]Outcome, error) {
	sum, rs, err := s.summary(ctx, encounterID)
	if err != nil {
		return nil, err
	}
	if !sum.Finished() {
		return nil, fray.Errorf(fray.EILLEGAL, "the encounter has not ended: its results are carried over after the end")
	}
	if len(sum.Fields) == 0 {
		return nil, fray.Errorf(fray.EILLEGAL, "the %s ruleset carries nothing from one encounter to the next", sum.Ruleset)
	}
	if seq != sum.Seq {
		return nil, fray.Errorf(fray.ECONFLICT, "the encounter changed since (it is at event %d, not %d): review the carry-over again", sum.Seq, seq)
	}
	if len(ds) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "decide for at least one character")
	}
	entries := map[string]*Entry{}
	for i := range sum.Characters {
		entries[sum.Characters[i].ID] = &sum.Characters[i]
	}
	var out []Outcome
	var writes []store.CarryDecision
	seen := map[string]bool{}
	for _, d := range ds {
		en := entries[d.Character]
		if en == nil {
			return nil, fray.Errorf(fray.ENOTFOUND, "no player character %q in this encounter", d.Character)
		}
		if seen[d.Character] {
			return nil, fray.Errorf(fray.EINVALID, "%s is decided twice", en.Name)
		}
		seen[d.Character] = true
		if en.State == StateBlocked {
			return nil, fray.Errorf(fray.EILLEGAL, "%s cannot be carried over: %s", en.Name, en.Problem)
		}
		o, w, err := s.decide(rs, sum, en, d, by)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
		if w != nil {
			writes = append(writes, *w)
		}
	}
	if len(writes) > 0 {
		recorded, err := s.db.DecideCarryOver(ctx, encounterID, seq, writes)
		if err != nil {
			return nil, err
		}
		rev := map[string]int{}
		for _, r := range recorded {
			rev[r.CharacterID] = r.Revision
		}
		for i := range out {
			if r, ok := rev[out[i].Character]; ok && r != 0 {
				out[i].Revision = r
			}
		}
	}
	return out, nil
}

// decide works out one decision: its outcome and what to record (nil when
// nothing needs recording).
func (s *Service) decide(rs engine.Ruleset, sum Summary, en *Entry, d Decision, by User) (Outcome, *store.CarryDecision, error) {
	fields := sum.Fields
	o := Outcome{Character: en.ID, Decision: store.CarryConfirmed, Revision: en.Revision, Changes: []sheet.Change{}}
	prev := en.Decided
	sameEnd := prev != nil && prev.Seq == sum.Seq
	rec := store.CarryDecision{
		CarryOver: store.CarryOver{CampaignID: sum.CampaignID, CharacterID: en.ID, UserID: by.ID, UserName: by.Name},
		// A new character is created by the decision: no revision to expect.
		ExpectRevision: en.Revision,
	}
	save := func(stats json.RawMessage, kind string, changes []sheet.Change) *store.CharacterSave {
		b := store.StatBlock{ID: en.ID, CampaignID: sum.CampaignID, Ruleset: sum.Ruleset, Name: en.Name, Stats: stats}
		if ch := en.character; ch != nil {
			b = ch.StatBlock
			b.Stats = stats
		}
		return &store.CharacterSave{Block: b, Kind: kind, Changes: changes, EncounterID: sum.EncounterID,
			EncounterName: sum.Name, UserID: by.ID, UserName: by.Name}
	}
	if d.Skip {
		o.Decision = store.CarrySkipped
		if len(d.Values) > 0 {
			return o, nil, fray.Errorf(fray.EINVALID, "%s: a skip takes no values", en.Name)
		}
		if en.character == nil || (sameEnd && prev.Decision == store.CarrySkipped) {
			return o, nil, nil // nothing to record, or recorded already
		}
		rec.Decision, rec.Applied = store.CarrySkipped, sheet.CarryApplied{}
		to := sheet.ClampCarried(fields, en.Base)
		if o.Changes = sheet.CarryChanges(fields, en.Current, to); len(o.Changes) > 0 {
			stats, err := sheetWith(rs, fields, en, to)
			if err != nil {
				return o, nil, err
			}
			rec.Write, o.Changed = save(stats, store.RevisionCarried, o.Changes), true
		}
		return o, &rec, nil
	}
	edits, err := sheet.ParseCarried(fields, d.Values)
	if err != nil {
		return o, nil, fray.Errorf(fray.EINVALID, "%s: %s", en.Name, fray.ErrorMessage(err))
	}
	to := maps.Clone(en.Proposal)
	maps.Copy(to, edits)
	stats, err := sheetWith(rs, fields, en, to)
	if err != nil {
		return o, nil, err
	}
	rec.Decision, rec.Applied = store.CarryConfirmed, sheet.StepsBetween(fields, en.Base, to)
	o.Changes = sheet.CarryChanges(fields, en.Current, to)
	if en.character == nil {
		o.Changes = sheet.CarryChanges(fields, en.Start, to)
		rec.Write, o.Changed = save(stats, store.RevisionCreated, o.Changes), true
		return o, &rec, nil
	}
	if sameEnd && prev.Decision == store.CarryConfirmed && len(o.Changes) == 0 && sameSteps(fields, prev.Applied, rec.Applied) {
		return o, nil, nil // confirmed again: nothing changes
	}
	if len(o.Changes) > 0 {
		rec.Write, o.Changed = save(stats, store.RevisionCarried, o.Changes), true
	}
	return o, &rec, nil
}

// sameSteps compares steps read back from the store (numbers as float64)
// with fresh ones.
func sameSteps(fields []sheet.CarryField, a, b sheet.CarryApplied) bool {
	norm := func(in sheet.CarryApplied) sheet.CarryApplied {
		out := sheet.CarryApplied{}
		for _, f := range fields {
			st, ok := in[f.Name]
			if !ok {
				continue
			}
			from, _ := sheet.CarryValue(f, st.From)
			to, _ := sheet.CarryValue(f, st.To)
			out[f.Name] = sheet.CarryStep{From: from, To: to}
		}
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}
