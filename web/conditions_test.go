package web

import (
	"context"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/swzones"
)

// TestFighterConditionsShown: the battlefield shows the sw-zones conditions
// a player must see to choose an action (prone, hold, grapples, The Drop),
// and the GM's Benny pool only to the GM.
func TestFighterConditionsShown(t *testing.T) {
	view := func(gm bool) engine.View {
		return engine.View{
			ID: "e", Name: "E", Ruleset: "sw-zones", Status: engine.StatusRunning, Round: 1,
			Viewer:     engine.Viewer{GM: gm},
			Sides:      []engine.Side{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}},
			Combatants: []engine.Combatant{{ID: "x", Name: "Xan", Side: "a"}, {ID: "y", Name: "Yor", Side: "b"}},
			Rules: swzones.View{
				GMBennies: 4,
				Zones:     []swzones.ZoneView{{ID: "z", Name: "Zone", Unengaged: []string{"x", "y"}}},
				Fighters: map[string]swzones.FighterView{
					"x": {ID: "x", Zone: "z", Prone: true, Hold: true, Drop: "y"},
					"y": {ID: "y", Zone: "z", Grip: "bound", GrippedBy: "x", Garrotte: true},
				},
			},
		}
	}
	frags, err := Fragments(context.Background(), view(false), nil, true)
	if err != nil {
		t.Fatal(err)
	}
	bf := frags["battlefield"]
	for _, want := range []string{"Prone", "On Hold", "Has the Drop on Yor", "Bound", "by Xan", "(garrotte)"} {
		if !strings.Contains(bf, want) {
			t.Errorf("battlefield lacks %q", want)
		}
	}
	if strings.Contains(frags["status"], "GM Bennies") {
		t.Error("a player sees the GM's Bennies")
	}
	gmFrags, _ := Fragments(context.Background(), view(true), nil, true)
	if !strings.Contains(gmFrags["status"], "GM Bennies") {
		t.Error("the GM does not see their Bennies")
	}
}
