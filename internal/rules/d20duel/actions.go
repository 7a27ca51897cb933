package d20duel

import (
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// actions are what v may do now: in the approach, what each fighter
// apart that v commands may do, every select listing only legal choices;
// for the GM, the rulings — which the engine keeps offering while
// decisions wait.
func actions(st *State, v engine.Viewer) []engine.Action {
	if st.Status != engine.StatusRunning {
		return nil
	}
	var out []engine.Action
	if !st.Waiting() && st.Label == PhaseApproach {
		for _, id := range st.Acting {
			if v.CanCommand(id) && engine.Visible(st, v, id) && !st.Combatant(id).Out {
				out = append(out, approachActions(st, v, id)...)
			}
		}
	}
	if v.GM {
		out = append(out, gmActions(st)...)
	}
	return out
}

func approachActions(st *State, v engine.Viewer, id string) []engine.Action {
	f := st.Fighters[id]
	var out []engine.Action
	var engageable, shootable []engine.Choice
	for _, c := range st.Combatants {
		if c.Out || c.Side == st.Combatant(id).Side || !engine.Visible(st, v, c.ID) {
			continue
		}
		shootable = append(shootable, engine.Choice{Value: c.ID, Label: c.Name})
		if st.canPair(id, c.ID) == nil {
			engageable = append(engageable, engine.Choice{Value: c.ID, Label: c.Name})
		}
	}
	if len(engageable) > 0 && !f.Fallen() {
		out = append(out, engine.Action{Kind: CmdEngage, Actor: id, Label: "Engage", Main: true,
			Help:   "Close in: the pair starts at Striking distance and fights in this round's exchange.",
			Fields: []engine.Field{{Name: "target", Label: "Opponent", Type: engine.FieldSelect, Options: engageable, Target: true}}})
	}
	if ranged := f.rangedWeapons(); len(ranged) > 0 && len(shootable) > 0 {
		var ws []engine.Choice
		for _, w := range ranged {
			label := w.Name
			if w.attacks() > 1 {
				label += fmt.Sprintf(" (Auto %d)", w.attacks())
			}
			ws = append(ws, engine.Choice{Value: w.ID, Label: label})
		}
		out = append(out, engine.Action{Kind: CmdShoot, Actor: id, Label: "Shoot", Main: true,
			Help: "Strike + Ranged against the target (Find Weakness −2 on the first shot only; Disarm and Immobilize −2 at range).",
			Fields: []engine.Field{
				{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: shootable, Target: true},
				{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: ws},
				{Name: "aim", Label: "Aim", Type: engine.FieldSelect, Options: aimChoices(), Default: AimNormal},
			}})
	}
	out = append(out, engine.Action{Kind: CmdTest, Actor: id, Label: "Attempt a test",
		Help:   "Black and white d20 against the Attribute: black at or below passes, the white die is the degree. The GM may veto it.",
		Fields: testFields(nil)})
	if len(f.Dropped) > 0 {
		var ws []engine.Choice
		for _, w := range f.Dropped {
			ws = append(ws, engine.Choice{Value: w, Label: f.weapon(w).Name})
		}
		out = append(out, engine.Action{Kind: CmdRecover, Actor: id, Label: "Pick up a weapon",
			Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: ws}}})
	}
	out = append(out, engine.Action{Kind: CmdWait, Actor: id, Label: "Wait", Main: true, Help: "Do nothing this round."})
	return out
}

// testFields are a test's inputs; who is a select of fighters for the
// GM's roll-test.
func testFields(who []engine.Choice) []engine.Field {
	var attrs []engine.Choice
	for _, a := range attributes {
		attrs = append(attrs, engine.Choice{Value: a, Label: attrLabel(a)})
	}
	var fs []engine.Field
	if who != nil {
		fs = append(fs, engine.Field{Name: "fighter", Label: "Fighter", Type: engine.FieldSelect, Options: who, Target: true})
	}
	return append(fs,
		engine.Field{Name: "attribute", Label: "Attribute", Type: engine.FieldSelect, Options: attrs, Default: "agility"},
		engine.Field{Name: "modifier", Label: "Modifier", Type: engine.FieldNumber, Min: -10, Max: 10, Default: "0"},
		engine.Field{Name: "what", Label: "Attempt", Type: engine.FieldString})
}

func gmActions(st *State) []engine.Action {
	var out []engine.Action
	// Engaged pairs may change distance or separate; pairs not engaged,
	// and free to, may be engaged: two forms of set-distance, each
	// offering only pairs its distances suit.
	var engaged, free, fighters []engine.Choice
	for i, a := range st.Combatants {
		if a.Out {
			continue
		}
		fighters = append(fighters, engine.Choice{Value: a.ID, Label: a.Name})
		if a.Hidden {
			continue
		}
		for _, b := range st.Combatants[i+1:] {
			if b.Out || b.Hidden || b.Side == a.Side {
				continue
			}
			label := a.Name + " and " + b.Name
			if e := st.engagement(a.ID, b.ID); e != nil {
				engaged = append(engaged, engine.Choice{Value: pairValue(a.ID, b.ID), Label: label + " (" + distanceLabels[e.Distance] + ")"})
			} else if st.canPair(a.ID, b.ID) == nil {
				free = append(free, engine.Choice{Value: pairValue(a.ID, b.ID), Label: label})
			}
		}
	}
	if len(engaged) > 0 {
		out = append(out, engine.Action{Kind: CmdSetDistance, Label: "Set a distance",
			Help: "Change an engaged pair's distance, or separate them.",
			Fields: []engine.Field{
				{Name: "pair", Label: "Fighters", Type: engine.FieldSelect, Options: engaged},
				{Name: "distance", Label: "Distance", Type: engine.FieldSelect, Options: kit.Choices(Striking, "Striking", Grappling, "Grappling", Apart, "Apart")},
			}})
	}
	if len(free) > 0 {
		out = append(out, engine.Action{Kind: CmdSetDistance, Label: "Engage two fighters",
			Help: "Engage two fighters who are not engaged, at a distance.",
			Fields: []engine.Field{
				{Name: "pair", Label: "Fighters", Type: engine.FieldSelect, Options: free},
				{Name: "distance", Label: "Distance", Type: engine.FieldSelect, Options: kit.Choices(Striking, "Striking", Grappling, "Grappling")},
			}})
	}
	if len(fighters) == 0 {
		return out
	}
	if kit.Opt(&st.Base, OptCinematic) == On {
		out = append(out, engine.Action{Kind: CmdDriveBack, Label: "Drive back (secret)",
			Help: "How many successful blows on this fighter only drive them back. Players never see the count.",
			Fields: []engine.Field{
				{Name: "fighter", Label: "Fighter", Type: engine.FieldSelect, Options: fighters, Target: true},
				{Name: "blows", Label: "Blows", Type: engine.FieldNumber, Min: 0, Max: MaxDriveBack, Default: strconv.Itoa(1)},
			}})
	}
	out = append(out, engine.Action{Kind: CmdRollTest, Label: "Roll a test",
		Help: "A test for any fighter, at once (no veto).", Fields: testFields(fighters)})
	return out
}
