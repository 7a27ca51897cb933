package d6bands

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// prompts are the questions put to a fighter off its turn that its
// player's standing orders may answer (see engine.Prompter): the Defense
// Pool against a melee attack (one die when spent), and the skill of an
// Extreme range duel, a sealed choice a standing order commits to and
// reveals like its player would.
var prompts = []kit.Prompt[*State, *Fighter]{
	{Kind: DecDefense, Label: "Spend Defense Pool dice against a melee attack", Help: "A standing order spends one die.",
		Answers: []engine.Choice{{Value: "spend", Label: "Spend a die"}, {Value: "none", Label: "No defense"}},
		Conditions: []kit.Condition[*State, *Fighter]{
			kit.When[*State, *Fighter]("pool", "I have two dice or more left", func(st *State, _ kit.None, d engine.Decision) bool {
				f := st.Fighters[d.For]
				return f != nil && f.Pool >= 2
			}),
		}},
	{Kind: DecDuel, Label: "The skill of an Extreme range duel", Answers: duelAnswers()},
}

func duelAnswers() []engine.Choice {
	out := make([]engine.Choice, len(duelSkills))
	for i, s := range duelSkills {
		out[i] = engine.Choice{Value: s, Label: skillName(s)}
	}
	return out
}
