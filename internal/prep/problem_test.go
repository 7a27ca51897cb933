package prep_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
)

// TestExplainUsesTheGMsNames breaks every example encounter in the ways a
// draft is commonly broken — and in ways only its ruleset refuses — after
// naming its zones, sides and combatants unlike their ids, and holds every
// check message and fix to the GM's names: no id of the draft appears in
// them, and each says how to fix it.
func TestExplainUsesTheGMsNames(t *testing.T) {
	reg := rules.Registry()
	all, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	breaks := map[string]func(s *engine.Setup, b *board.Battlefield){
		"nobody":   func(s *engine.Setup, b *board.Battlefield) { s.Combatants = nil },
		"one side": func(s *engine.Setup, b *board.Battlefield) { setSides(s, s.Combatants[0].Side) },
		"placed nowhere": func(s *engine.Setup, b *board.Battlefield) {
			prep.SetStart(&s.Combatants[len(s.Combatants)-1], board.Start{})
			prep.LeaveGroups(b, s.Combatants[len(s.Combatants)-1].ID)
		},
		"zone cut off": func(s *engine.Setup, b *board.Battlefield) {
			if len(b.Zones) < 2 {
				return
			}
			last := b.Zones[len(b.Zones)-1].ID
			for i := range b.Zones {
				b.Zones[i].Adjacent = slices.DeleteFunc(b.Zones[i].Adjacent, func(a string) bool { return a == last })
			}
			b.Zones[len(b.Zones)-1].Adjacent = nil
		},
		"unknown side": func(s *engine.Setup, b *board.Battlefield) { s.Sides = s.Sides[:1] },
		"off the grid": func(s *engine.Setup, b *board.Battlefield) {
			if b.Width > 0 {
				x := b.Width + 3
				st := prep.StartOf(s.Combatants[0])
				st.X, st.Y = &x, &x
				prep.SetStart(&s.Combatants[0], st)
			}
		},
		"a melee across zones": func(s *engine.Setup, b *board.Battlefield) {
			if len(b.Zones) > 1 && len(s.Combatants) > 1 {
				b.Melees = append(b.Melees, board.GroupSetup{ID: "m-broken", Zone: b.Zones[0].ID, Members: []string{s.Combatants[0].ID, s.Combatants[1].ID}})
				prep.SetStart(&s.Combatants[1], board.Start{Zone: b.Zones[1].ID})
			}
		},
	}
	checked := 0
	for _, ex := range all {
		rs, err := reg.Get(ex.Ruleset)
		if err != nil {
			t.Fatal(err)
		}
		e, boarded := prep.EditorOf(rs)
		for name, breakIt := range breaks {
			var s engine.Setup
			if err := json.Unmarshal(ex.Data, &s); err != nil {
				t.Fatal(err)
			}
			b, err := prep.ReadBattlefield(s)
			if err != nil {
				t.Fatal(err)
			}
			// Names unlike the ids.
			var ids []string
			for i := range s.Sides {
				ids = append(ids, s.Sides[i].ID)
				s.Sides[i].Name = "Band " + strconv.Itoa(i+1)
			}
			for i := range s.Combatants {
				ids = append(ids, s.Combatants[i].ID)
				s.Combatants[i].Name = "Fighter " + strconv.Itoa(i+1)
			}
			for i := range b.Zones {
				ids = append(ids, b.Zones[i].ID)
				b.Zones[i].Name = "Place " + strconv.Itoa(i+1)
			}
			breakIt(&s, &b)
			for _, m := range b.Melees {
				ids = append(ids, m.ID)
			}
			prep.WriteBattlefield(&s, b)
			p, bad := prep.Explain(reg, e, boarded, s)
			if !bad {
				continue
			}
			checked++
			for _, id := range ids {
				word := regexp.MustCompile(`(^|[^\pL\pN_-])` + regexp.QuoteMeta(id) + `($|[^\pL\pN_-])`)
				if word.MatchString(p.Text) || word.MatchString(p.Fix) {
					t.Errorf("%s, %s: the check names id %q: %q (fix %q)", ex.Name, name, id, p.Text, p.Fix)
				}
			}
			if p.Fix == "" {
				t.Errorf("%s, %s: %q says no fix", ex.Name, name, p.Text)
			}
		}
	}
	if checked < len(all)*3 {
		t.Fatalf("only %d broken drafts were refused", checked)
	}
}

func setSides(s *engine.Setup, side string) {
	for i := range s.Combatants {
		s.Combatants[i].Side = side
	}
}
