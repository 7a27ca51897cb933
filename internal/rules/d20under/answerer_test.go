package d20under

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// TestHiddenCharactersQuestionIsTheGMs: the one policy for who answers
// (engine.Base.Answerer) — a player character the GM keeps hidden earns a
// choice (knock the foe in pain down, or a free attack), but the GM makes
// it, in secret: not even the character's own player reads of it.
func TestHiddenCharactersQuestionIsTheGMs(t *testing.T) {
	st := begin(t, newState(t, gridSetup(map[string]string{OptCriticals: Off, OptPainEffect: PainChoose}, 6, 3, nil,
		spec{ID: "ana", Side: "heroes", PC: true, Hidden: true, X: 1, Y: 1, Attr: map[string]int{Accurate: 13, Quick: 12},
			Weapons: []map[string]any{{"id": "maul", "name": "Maul", "type": "heavy"}}},
		spec{ID: "bo", Side: "heroes", PC: true, X: 0, Y: 0, Attr: map[string]int{Quick: 10}},
		spec{ID: "orc", Side: "foes", X: 2, Y: 1, Attr: map[string]int{Quick: 11, Strong: 13}, Armour: map[string]any{"type": "medium"}},
	)))
	// 10 on the maul against flat armour 3: 7, the orc's Pain Threshold.
	events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "orc"), 3, 10)
	d := pendingKind(t, st, DecPain)
	eq(t, "asked of", d.For, "ana")
	enginetest.AssertGMAnswers(t, New(), st, events, d, engine.PlayerViewer("bo"))
	_, st = answer(t, st, gm, DecPain, "prone", nil)
	eq(t, "the GM's answer", st.Fighters["orc"].Prone, true)
}
