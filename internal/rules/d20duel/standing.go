package d20duel

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// prompts are the questions put to a fighter that its player's standing
// orders may answer (see engine.Prompter): the sealed stance of each
// exchange — which a standing order commits to and reveals like its
// player would — maneuvering, and retreating when a blow drives them back.
var prompts = []kit.Prompt[*State, *Fighter]{
	{Kind: DecStance, Label: "The stance of an exchange", Help: "Your first melee weapon, a normal aim, the first opponent.",
		Answers:    []engine.Choice{{Value: StanceDefault, Label: "Default attack"}, {Value: StanceReckless, Label: "Reckless"}, {Value: StanceDefensive, Label: "Defensive"}},
		Conditions: []kit.Condition[*State, *Fighter]{wounded, halfway}},
	{Kind: DecManeuver, Label: "Maneuver to change the distance",
		Answers:    []engine.Choice{{Value: ManeuverChange, Label: "Change the distance"}, {Value: ManeuverStay, Label: "Keep the distance"}},
		Conditions: []kit.Condition[*State, *Fighter]{wounded, halfway}},
	{Kind: DecRetreat, Label: "Retreat when a blow drives you back",
		Answers:    []engine.Choice{{Value: KeepFighting, Label: "Keep fighting"}, {Value: Retreat, Label: "Retreat"}},
		Conditions: []kit.Condition[*State, *Fighter]{wounded, halfway}},
}

var (
	wounded = kit.When[*State, *Fighter]("wounded", "I am wounded", func(st *State, _ kit.None, d engine.Decision) bool {
		f := st.Fighters[d.For]
		return f != nil && f.totalPenalty() > 0
	})
	halfway = kit.When[*State, *Fighter]("halfway", "my wounds are half-way to collapsing", func(st *State, _ kit.None, d engine.Decision) bool {
		f, at := st.Fighters[d.For], kit.OptInt(&st.Base, OptCollapseAt)
		return f != nil && at > 0 && 2*f.totalPenalty() >= at
	})
)
