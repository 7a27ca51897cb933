package d20tactical

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// prompts are the questions put to a fighter that its player's standing
// orders may answer (see engine.Prompter): attacks of opportunity,
// readied actions, a critical hit's choice and Life Points against
// massive damage.
var prompts = []kit.Prompt[*State, *Fighter]{
	{Kind: DecReaction, Label: "Attacks of opportunity and free attacks",
		Answers: yesNo("attack", "Attack", "pass", "Let it go"), Conditions: []kit.Condition[*State, *Fighter]{belowHalf}},
	{Kind: DecReady, Label: "Take a readied action",
		Answers: []engine.Choice{{Value: "act", Label: "Act now"}, {Value: "wait", Label: "Keep waiting"}}},
	{Kind: DecCritical, Label: "A critical hit: double damage or a Life Point",
		Answers: []engine.Choice{{Value: critDouble, Label: "Double damage"}, {Value: critLife, Label: "A Life Point"}}},
	{Kind: DecMassive, Label: "Spend a Life Point against massive damage",
		Answers: yesNo("spend", "Spend a Life Point", "take", "Take it"),
		Conditions: []kit.Condition[*State, *Fighter]{belowHalf,
			kit.When[*State, *Fighter]("life", "I have three Life Points or more", func(st *State, _ kit.None, d engine.Decision) bool {
				f := st.Fighters[d.For]
				return f != nil && f.LifePoints >= 3
			})}},
}

var belowHalf = kit.When[*State, *Fighter]("below-half", "I am below half my hit points", func(st *State, _ kit.None, d engine.Decision) bool {
	f := st.Fighters[d.For]
	return f != nil && 2*f.HP < f.Sheet.HP
})
