package d20under

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// prompts are the questions put to a fighter that its player's standing
// orders may answer (see engine.Prompter): a free attack offered by a foe,
// and what pain does to the foe one has just hurt.
var prompts = []kit.Prompt[*State, *Fighter]{
	{Kind: DecFreeAttack, Label: "Take a free attack",
		Answers:    []engine.Choice{{Value: "attack", Label: "Attack"}, {Value: "no", Label: "Let it go"}},
		Conditions: []kit.Condition[*State, *Fighter]{hurt}},
	{Kind: DecPain, Label: "A foe in pain: knock them down or strike",
		Answers: []engine.Choice{{Value: "prone", Label: "Knock them prone"}, {Value: "free", Label: "A free attack"}}},
}

var hurt = kit.When[*State, *Fighter]("hurt", "I am below half my Toughness", func(st *State, _ kit.None, d engine.Decision) bool {
	f := st.Fighters[d.For]
	return f != nil && 2*f.Toughness < f.MaxToughness
})
