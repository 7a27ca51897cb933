package d20duel

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// TestHiddenFightersStanceIsTheGMs: the one policy for who answers
// (engine.Base.Answerer) — a fighter the GM keeps hidden is asked its
// stance like anyone engaged, but the GM answers, in secret: its player
// reads nothing of it and waits on "the GM".
func TestHiddenFightersStanceIsTheGMs(t *testing.T) {
	st := newState(t, newSetup(nil, []pair{{"ana", "bront", "striking"}},
		spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
		spec{ID: "bront", Side: "foes", PC: true, Stats: brontStats}))
	st.Combatant("bront").Hidden = true // hidden once engaged: the GM's to play
	events, st := do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	d := pendingFor(t, st, DecStance, "bront")
	eq(t, "asked of", d.For, "bront")
	enginetest.AssertGMAnswers(t, New(), st, events, d, anaPl)
	eq(t, "ana answers her own", st.Answerer(pendingFor(t, st, DecStance, "ana")), "ana")
}
