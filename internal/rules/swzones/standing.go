package swzones

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// prompts are the questions put to a fighter off its turn that its
// player's standing orders may answer (see engine.Prompter): Soak, a
// reroll with a Benny, diving out of an area, interrupting from Hold.
var prompts = []kit.Prompt[*State, *Fighter]{
	{Kind: DecSoak, Label: "Soak a hit with a Benny", Help: "Asked when a hit would wound you and you have a Benny.",
		Answers: yesNo("soak", "Soak (spend a Benny, roll Vigor)", "take", "Take the wounds"),
		Conditions: []kit.Condition[*State, *Fighter]{
			when("out", "the hit would take me out", func(st *State, c Cont, _ engine.Decision) bool {
				return c.Soak != nil && c.Soak.Harm.Incapacitated
			}),
			when("two-wounds", "the hit would cause two wounds or more", func(st *State, c Cont, _ engine.Decision) bool {
				return c.Soak != nil && c.Soak.Harm.Wounds-c.Soak.Best >= 2
			}),
			haveBennies,
		}},
	{Kind: DecReroll, Label: "Reroll a failed roll with a Benny",
		Answers: yesNo("reroll", "Reroll (spend a Benny)", "keep", "Keep the roll"), Conditions: []kit.Condition[*State, *Fighter]{haveBennies}},
	{Kind: DecDive, Label: "Dive out of an area attack", Answers: yesNo("dive", "Dive out (roll Agility)", "stay", "Stay put")},
	{Kind: DecInterrupt, Label: "Interrupt from Hold", Answers: yesNo("interrupt", "Interrupt", "pass", "Let them")},
}

var haveBennies = when("bennies", "I have two Bennies or more", func(st *State, _ Cont, d engine.Decision) bool {
	return st.bennies(d.For) >= 2
})

// when declares a condition on a decision's Cont.
func when(value, label string, fn func(*State, Cont, engine.Decision) bool) kit.Condition[*State, *Fighter] {
	return kit.When[*State, *Fighter](value, label, fn)
}
