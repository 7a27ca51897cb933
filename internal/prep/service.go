package prep

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/battlemap"
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/uvtt"
)

// ServiceStore is what the GM's preparation needs; *store.DB provides it.
type ServiceStore interface {
	Store
	Encounter(ctx context.Context, id string) (store.Encounter, error)
	Encounters(ctx context.Context, campaignID string) ([]store.Encounter, error)
	CreateDraft(ctx context.Context, d store.Draft) (store.Draft, error)
	Draft(ctx context.Context, id string) (store.Draft, error)
	Drafts(ctx context.Context, campaignID string) ([]store.Draft, error)
	UpdateDraft(ctx context.Context, id, name string, setup []byte) error
	StepDraft(ctx context.Context, id string, redo bool) error
	DeleteDraft(ctx context.Context, id string) error
	StatBlocks(ctx context.Context, kind, campaignID string) ([]store.StatBlock, error)
	StatBlock(ctx context.Context, kind, campaignID, id string) (store.StatBlock, error)
	SaveStatBlocks(ctx context.Context, kind string, create bool, bs []store.StatBlock) error
	DeleteStatBlock(ctx context.Context, kind, campaignID, id string) error
	SetPortrait(ctx context.Context, kind, campaignID, id, portrait string) error
}

// Service is the GM's preparation of encounters: drafts and their editor,
// the bestiary and the player characters' sheets, imports and exports.
type Service struct {
	db    ServiceStore
	rules *engine.Registry
}

// NewService returns a Service over db for the rulesets of rules.
func NewService(db ServiceStore, rules *engine.Registry) *Service {
	return &Service{db: db, rules: rules}
}

// Import validates a setup document and stores it as a new encounter of
// campaignID; nothing is stored when it is invalid.
func (s *Service) Import(ctx context.Context, campaignID string, data []byte) (store.Encounter, error) {
	return Import(ctx, s.db, s.rules, campaignID, data)
}

// Prepare validates a setup document without storing anything; Save
// stores it in a campaign.
func (s *Service) Prepare(data []byte) (Prepared, error) { return Prepare(s.rules, data) }

// Save stores a prepared encounter in campaignID.
func (s *Service) Save(ctx context.Context, campaignID string, p Prepared) (store.Encounter, error) {
	return Save(ctx, s.db, campaignID, p)
}

// Examples are the shipped example encounters.
func (s *Service) Examples() ([]Example, error) { return Examples() }

// AddExample adds the shipped example encounter name to campaignID.
func (s *Service) AddExample(ctx context.Context, campaignID, name string) (store.Encounter, error) {
	ex, err := ExampleNamed(name)
	if err != nil {
		return store.Encounter{}, err
	}
	return s.Import(ctx, campaignID, ex.Data)
}

// Encounter is an encounter's row, setup included.
func (s *Service) Encounter(ctx context.Context, id string) (store.Encounter, error) {
	return s.db.Encounter(ctx, id)
}

// Draft is a draft's row.
func (s *Service) Draft(ctx context.Context, id string) (store.Draft, error) {
	return s.db.Draft(ctx, id)
}

// NewDraft starts a draft of ruleset rulesetID in campaignID: two sides,
// nobody, an empty battlefield.
func (s *Service) NewDraft(ctx context.Context, campaignID, rulesetID, name string) (store.Draft, error) {
	rs, err := s.rules.Get(rulesetID)
	if err != nil {
		return store.Draft{}, err
	}
	if name = strings.TrimSpace(name); name == "" {
		name = "New encounter"
	}
	return s.createDraft(ctx, campaignID, NewDraftSetup(rs, name))
}

// ImportDraft stores a setup document as a new draft of campaignID; a
// malformed or oversized one stores nothing. The draft may still be
// incomplete.
func (s *Service) ImportDraft(ctx context.Context, campaignID string, data []byte) (store.Draft, error) {
	setup, err := s.readDraft(data)
	if err != nil {
		return store.Draft{}, err
	}
	return s.createDraft(ctx, campaignID, setup)
}

// ReplaceDraft replaces draft d's setup with a setup document.
func (s *Service) ReplaceDraft(ctx context.Context, d store.Draft, data []byte) error {
	setup, err := s.readDraft(data)
	if err != nil {
		return err
	}
	return s.saveDraft(ctx, d.ID, setup)
}

// Duplicate copies encounter e's setup into a new draft of its campaign,
// named as a copy ("Ambush (copy)", "Ambush (copy 2)" …) so that the two
// are told apart in every list.
func (s *Service) Duplicate(ctx context.Context, e store.Encounter) (store.Draft, error) {
	setup, err := ReadSetup(s.rules, e.Setup)
	if err != nil {
		return store.Draft{}, err
	}
	taken := map[string]bool{}
	encs, err := s.db.Encounters(ctx, e.CampaignID)
	if err != nil {
		return store.Draft{}, err
	}
	for _, x := range encs {
		taken[x.Name] = true
	}
	drafts, err := s.db.Drafts(ctx, e.CampaignID)
	if err != nil {
		return store.Draft{}, err
	}
	for _, d := range drafts {
		taken[d.Name] = true
	}
	setup.Name = copyName(setup.Name, taken)
	return s.createDraft(ctx, e.CampaignID, setup)
}

// copyName is the first of "name (copy)", "name (copy 2)" … not taken,
// counting on from a name that is itself a copy.
func copyName(name string, taken map[string]bool) string {
	base := name
	if i := strings.LastIndex(name, " (copy"); i > 0 && strings.HasSuffix(name, ")") {
		if n := strings.TrimSuffix(name[i+len(" (copy"):], ")"); n == "" || strings.TrimLeft(n, " 0123456789") == "" {
			base = name[:i]
		}
	}
	for n := 1; ; n++ {
		c := base + " (copy)"
		if n > 1 {
			c = base + " (copy " + strconv.Itoa(n) + ")"
		}
		if !taken[c] {
			return c
		}
	}
}

// DeleteDraft deletes a draft.
func (s *Service) DeleteDraft(ctx context.Context, id string) error { return s.db.DeleteDraft(ctx, id) }

// Create turns draft d, when valid, into an encounter in status setup.
func (s *Service) Create(ctx context.Context, d store.Draft) (store.Encounter, error) {
	p, err := Prepare(s.rules, d.Setup)
	if err != nil {
		return store.Encounter{}, err
	}
	return Save(ctx, s.db, d.CampaignID, p)
}

// Edit applies one form of the encounter editor (DraftEditor.Apply: the
// form's op says which) to draft d and stores it. An edit that leaves the
// draft an invalid encounter is stored (its page says why). The ops undo
// and redo step through the draft's edit history instead (every stored
// edit, a replacement from a file included, can be undone).
func (s *Service) Edit(ctx context.Context, d store.Draft, form url.Values) error {
	if op := strings.TrimSpace(form.Get("op")); op == "undo" || op == "redo" {
		return s.db.StepDraft(ctx, d.ID, op == "redo")
	}
	setup, err := decodeDraft(d)
	if err != nil {
		return err
	}
	rs, err := s.rules.Get(setup.Ruleset)
	if err != nil {
		return err
	}
	block := func(kind, id string) (store.StatBlock, error) { return s.db.StatBlock(ctx, kind, d.CampaignID, id) }
	if err := EditorFor(rs, block).Apply(&setup, strings.TrimSpace(form.Get("op")), form); err != nil {
		return err
	}
	return s.saveDraft(ctx, d.ID, setup)
}

// ImportMap makes the draft's battlefield from a battlemap (ApplyMap),
// with scene (an uploaded picture's URL, "" to keep the draft's) as its
// scene: one edit, undone by the editor's undo.
func (s *Service) ImportMap(ctx context.Context, d store.Draft, m *uvtt.Map, scene string, o battlemap.Options) (MapReport, error) {
	setup, err := decodeDraft(d)
	if err != nil {
		return MapReport{}, err
	}
	rs, err := s.rules.Get(setup.Ruleset)
	if err != nil {
		return MapReport{}, err
	}
	// Reading the zones takes up to a second of a core on the worst map
	// the reader lets through: under the decoders' gate, like the file.
	var rep MapReport
	err = intake.Run(ctx, intake.Job{What: "map file", Cost: int64(m.Width+4) * int64(m.Height+4) * 64}, func(context.Context) error {
		rep, err = ApplyMap(rs, &setup, m, o)
		return err
	})
	if err != nil {
		return MapReport{}, err
	}
	if scene != "" {
		setup.Scene = scene
	}
	return rep, s.saveDraft(ctx, d.ID, setup)
}

// DraftView is a draft as its editor shows it.
type DraftView struct {
	store.Draft
	Setup   engine.Setup
	Ruleset engine.Ruleset
	// Problem says why creating the encounter would fail now (the player
	// characters taking their sheets' latest revisions, as creating does);
	// empty when it would not. It names things as the GM named them;
	// ProblemFix says how to fix it and ProblemAt is the zone, square
	// ("x,y") or combatant it is about, when it is about one.
	Problem, ProblemFix, ProblemAt string
	// Board and Battlefield are the ruleset's battlefield editor and the
	// draft's battlefield, when the ruleset draws a board (Boarded).
	Board       board.Editor
	Boarded     bool
	Battlefield board.Battlefield
	// Bestiary and Characters are the campaign's stat blocks of the
	// draft's ruleset, to add to it.
	Bestiary, Characters []store.StatBlock
}

// View reads draft d for its editor.
func (s *Service) View(ctx context.Context, d store.Draft) (DraftView, error) {
	setup, err := decodeDraft(d)
	if err != nil {
		return DraftView{}, err
	}
	rs, err := s.rules.Get(setup.Ruleset)
	if err != nil {
		return DraftView{}, err
	}
	v := DraftView{Draft: d, Setup: setup, Ruleset: rs}
	// A draft stored past the limits (before they existed, or by hand) is
	// shown without its battlefield and with at most MaxCombatants
	// combatants, so its page stays small whatever it holds; it can be
	// replaced from a file or deleted.
	overLimits := CheckSetup(s.rules, setup)
	if overLimits != nil && len(v.Setup.Combatants) > MaxCombatants {
		v.Setup.Combatants = v.Setup.Combatants[:MaxCombatants]
	}
	taken := setup
	taken.Combatants = slices.Clone(setup.Combatants)
	if _, err := TakeCharacters(ctx, s.db, d.CampaignID, &taken); err != nil {
		return DraftView{}, err
	}
	if p, bad := s.explain(taken); bad {
		v.Problem, v.ProblemFix, v.ProblemAt = p.Text, p.Fix, p.At
	}
	if v.Battlefield, err = ReadBattlefield(setup); err != nil {
		v.Problem = fray.ErrorMessage(err)
	}
	v.Board, v.Boarded = EditorOf(rs)
	if overLimits != nil {
		v.Problem = "This draft is past the limits of an encounter and cannot be edited here: " + fray.ErrorMessage(overLimits) +
			" Replace it from a file or delete it."
		v.Boarded = false
	}
	for kind, dst := range map[string]*[]store.StatBlock{store.KindBestiary: &v.Bestiary, store.KindCharacter: &v.Characters} {
		bs, err := s.db.StatBlocks(ctx, kind, d.CampaignID)
		if err != nil {
			return DraftView{}, err
		}
		for _, b := range bs {
			if b.Ruleset == rs.ID() {
				*dst = append(*dst, b)
			}
		}
	}
	return v, nil
}

// Playable is draft d as creating its encounter would make it — the
// player characters with their sheets' latest revisions — for the
// encounter odds, with its ruleset and why it cannot be created now (""
// when it can).
func (s *Service) Playable(ctx context.Context, d store.Draft) (engine.Ruleset, engine.Setup, string, error) {
	setup, err := decodeDraft(d)
	if err != nil {
		return nil, setup, "", err
	}
	rs, err := s.rules.Get(setup.Ruleset)
	if err != nil {
		return nil, setup, "", err
	}
	setup, problem, err := s.playable(ctx, d.CampaignID, setup)
	return rs, setup, problem, err
}

// playable is setup with the player characters' latest sheets, and why
// it cannot be created ("" when it can).
func (s *Service) playable(ctx context.Context, campaignID string, setup engine.Setup) (engine.Setup, string, error) {
	setup.Combatants = slices.Clone(setup.Combatants)
	if _, err := TakeCharacters(ctx, s.db, campaignID, &setup); err != nil {
		return setup, "", err
	}
	p, _ := s.explain(setup)
	return setup, p.Text, nil
}

// explain is what is wrong with setup, in the GM's words.
func (s *Service) explain(setup engine.Setup) (Problem, bool) {
	rs, err := s.rules.Get(setup.Ruleset)
	if err != nil {
		return Problem{Text: fray.ErrorMessage(err)}, true
	}
	e, boarded := EditorOf(rs)
	return Explain(s.rules, e, boarded, setup)
}

// Shelf is what a campaign's GMs have prepared: drafts, the bestiary and
// the player characters' sheets. Players see the sheets only.
type Shelf struct {
	Drafts               []store.Draft
	Bestiary, Characters []store.StatBlock
}

// Shelf reads campaignID's preparations for a GM (gm) or a player.
func (s *Service) Shelf(ctx context.Context, campaignID string, gm bool) (Shelf, error) {
	var sh Shelf
	var err error
	if gm {
		if sh.Drafts, err = s.db.Drafts(ctx, campaignID); err != nil {
			return Shelf{}, err
		}
		if sh.Bestiary, err = s.db.StatBlocks(ctx, store.KindBestiary, campaignID); err != nil {
			return Shelf{}, err
		}
	}
	if sh.Characters, err = s.db.StatBlocks(ctx, store.KindCharacter, campaignID); err != nil {
		return Shelf{}, err
	}
	return sh, nil
}

// readDraft reads a setup document for a draft, checked against every
// limit (ReadSetup) and named; it may still be incomplete.
func (s *Service) readDraft(data []byte) (engine.Setup, error) {
	setup, err := ReadSetup(s.rules, data)
	if err != nil {
		return setup, err
	}
	if strings.TrimSpace(setup.Name) == "" {
		return setup, fray.Errorf(fray.EINVALID, "the encounter has no name")
	}
	return setup, nil
}

func (s *Service) createDraft(ctx context.Context, campaignID string, setup engine.Setup) (store.Draft, error) {
	data, err := s.draftData(setup)
	if err != nil {
		return store.Draft{}, err
	}
	return s.db.CreateDraft(ctx, store.Draft{CampaignID: campaignID, Name: setup.Name, Ruleset: setup.Ruleset, Setup: data})
}

func (s *Service) saveDraft(ctx context.Context, id string, setup engine.Setup) error {
	data, err := s.draftData(setup)
	if err != nil {
		return err
	}
	return s.db.UpdateDraft(ctx, id, setup.Name, data)
}

// draftData checks a draft's setup against the limits every encounter
// entering Fray keeps (CheckSetup) and encodes it, at most MaxSetupBytes.
// An edit past them is refused; one that leaves the draft an invalid
// encounter is kept (its page says why).
func (s *Service) draftData(setup engine.Setup) ([]byte, error) {
	if err := CheckSetup(s.rules, setup); err != nil {
		return nil, err
	}
	data, err := json.Marshal(setup)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSetupBytes {
		return nil, fray.Errorf(fray.ETOOLARGE, "the encounter would be larger than 1 MiB")
	}
	return data, nil
}

func decodeDraft(d store.Draft) (engine.Setup, error) {
	var s engine.Setup
	if err := json.Unmarshal(d.Setup, &s); err != nil {
		return s, fray.Errorf(fray.EINVALID, "the draft is damaged: %v", err)
	}
	return s, nil
}
