package server

import (
	"net/http"
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// handleDraftPage renders the encounter editor: settings, sides, the
// battlefield as the ruleset's editor describes it, and the combatants.
func (s *Server) handleDraftPage(w http.ResponseWriter, r *http.Request) {
	d, m, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	setup, err := decodeDraft(d)
	if err != nil {
		writeError(w, r, err)
		return
	}
	rs, err := s.rules.Get(setup.Ruleset)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// A draft stored past the limits (before they existed, or by hand) is
	// shown without its battlefield and with at most MaxCombatants rows, so
	// the page stays small whatever the draft holds; it can be replaced
	// from a file or deleted.
	overLimits := prep.CheckSetup(s.rules, setup)
	if overLimits != nil && len(setup.Combatants) > prep.MaxCombatants {
		setup.Combatants = setup.Combatants[:prep.MaxCombatants]
	}
	notice, problem := takeFlash(w, r, flashNotice), takeFlash(w, r, flashError)
	p := web.DraftProps{ID: d.ID, CampaignID: d.CampaignID, Name: setup.Name, Ruleset: rs.ID(), RulesetTitle: rs.Title(),
		Sides: setup.Sides, Notice: notice, Error: problem}
	for _, o := range rs.Options() {
		v := o.Default
		if x, ok := setup.Options[o.Name]; ok {
			v = x
		}
		p.Options = append(p.Options, web.OptionView{OptionSpec: o, Value: v})
	}
	// The check sees the player characters as creating the encounter will:
	// with their sheets' latest revisions.
	checked := setup
	checked.Combatants = slices.Clone(setup.Combatants)
	if cs, ok := s.store.(prep.CharacterStore); ok {
		if _, err := prep.TakeCharacters(ctx, cs, d.CampaignID, &checked); err != nil {
			writeError(w, r, err)
			return
		}
	}
	if err := prep.Check(s.rules, checked); err != nil {
		p.Problem = errMessage(err)
	}
	bf, err := prep.ReadBattlefield(setup)
	if err != nil {
		p.Problem = errMessage(err)
	}
	editor, boarded := prep.EditorOf(rs)
	if overLimits != nil {
		p.Problem = "This draft is past the limits of an encounter and cannot be edited here: " + errMessage(overLimits) +
			" Replace it from a file or delete it."
	} else if boarded {
		p.Board = draftBoard(editor, bf, setup)
	}
	for _, c := range setup.Combatants {
		st := prep.StartOf(c)
		p.Combatants = append(p.Combatants, web.CombatantRow{ID: c.ID, Name: c.Name, Side: c.Side, PC: c.PC, Hidden: c.Hidden,
			Start: st})
	}
	for kind, dst := range map[string]*[]engine.Choice{store.KindBestiary: &p.Bestiary, store.KindCharacter: &p.Characters} {
		bs, err := s.prep().StatBlocks(ctx, kind, m.campaign)
		if err != nil {
			writeError(w, r, err)
			return
		}
		for _, b := range bs {
			if b.Ruleset == rs.ID() {
				*dst = append(*dst, engine.Choice{Value: b.ID, Label: b.Name})
			}
		}
	}
	render(w, r, web.Draft(p))
}

// draftBoard is the editor's view of a draft's battlefield.
func draftBoard(e board.Editor, bf board.Battlefield, setup engine.Setup) *web.DraftBoard {
	b := &web.DraftBoard{Editor: e, Model: prep.ModelOf(e, bf), Width: bf.Width, Height: bf.Height}
	names := map[string]string{}
	for _, z := range bf.Zones {
		names[z.ID] = z.Name
	}
	for _, z := range bf.Zones {
		row := web.ZoneRow{ID: z.ID, Name: z.Name, Description: z.Description, X: z.X, Y: z.Y, Props: z.Props,
			Features: board.Features(e.Area, z.Props)}
		for _, a := range prep.Adjacent(bf, z.ID) {
			row.Adjacent = append(row.Adjacent, engine.Choice{Value: a, Label: cmp(names[a], a)})
		}
		b.Zones = append(b.Zones, row)
	}
	combatants := map[string]string{}
	var tokens []board.Token
	starts := map[string]board.Start{}
	for _, c := range setup.Combatants {
		combatants[c.ID] = c.Name
		tokens = append(tokens, board.Token{ID: c.ID, Name: c.Name, Side: c.Side, PC: c.PC, Hidden: c.Hidden})
		starts[c.ID] = prep.StartOf(c)
	}
	for _, ml := range bf.Melees {
		row := web.MeleeRow{ID: ml.ID, Zone: cmp(names[ml.Zone], ml.Zone)}
		for _, id := range ml.Members {
			row.Members = append(row.Members, cmp(combatants[id], id))
		}
		b.Melees = append(b.Melees, row)
	}
	for _, c := range bf.Cells {
		b.Cells = append(b.Cells, web.CellRow{X: c.X, Y: c.Y, Name: board.SquareName(c.X, c.Y), Features: board.Features(e.Area, c.Props)})
	}
	for i, pr := range bf.Pairs {
		b.Pairs = append(b.Pairs, web.PairRow{Index: i, A: pr.A, B: pr.B, Distance: pr.Distance})
	}
	if b.Model == board.Ladder && len(e.Distances) > 0 {
		for i, sa := range setup.Sides {
			for _, sb := range setup.Sides[i+1:] {
				row := web.DistanceRow{A: sa.ID, B: sb.ID, AName: sa.Name, BName: sb.Name, Rung: e.Distances[0]}
				for _, d := range bf.Distances {
					if d.A == sa.ID && d.B == sb.ID || d.A == sb.ID && d.B == sa.ID {
						row.Rung = d.Rung
					}
				}
				b.Distances = append(b.Distances, row)
			}
		}
		for _, row := range b.Distances {
			if !hasDistance(bf, row.A, row.B) {
				bf.Distances = append(bf.Distances, board.DistanceSetup{A: row.A, B: row.B, Rung: row.Rung})
			}
		}
	}
	b.Preview = engine.View{ID: "preview", Name: setup.Name, Status: engine.StatusSetup, Viewer: engine.GMViewer(), Sides: setup.Sides,
		Board: board.Preview(e, bf, tokens, starts)}
	for _, c := range setup.Combatants {
		b.Preview.Combatants = append(b.Preview.Combatants, c.Combatant)
	}
	return b
}

func hasDistance(bf board.Battlefield, a, b string) bool {
	for _, d := range bf.Distances {
		if d.A == a && d.B == b || d.A == b && d.B == a {
			return true
		}
	}
	return false
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
