package swzones

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

func TestShakenRecovery(t *testing.T) {
	tests := []struct {
		name      string
		faces     []int // Spirit d6, Wild Die
		recovered bool
		penalty   int
		result    string
	}{
		{"failure: still Shaken", []int{2, 3}, false, 0, "failure"},
		{"critical failure: still Shaken", []int{1, 1}, false, 0, "critical failure"},
		{"success: recovers at −2", []int{4, 1}, true, -2, "success"},
		{"raise: acts normally", []int{6, 2, 1}, true, 0, "raise"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newState(t, skirmishSetup(nil))
			st.Fighters["brak"].Shaken = true
			events, st := startWith(t, st, skirmishCards, tc.faces...)
			if got, want := kinds(events)[3:], []string{engine.KindTurnStarted, KindShakenRecovery}; !slices.Equal(got, want) {
				t.Fatalf("events = %v", kinds(events))
			}
			rec := events[4]
			eq(t, "label", rec.Rolls[0].Label, "Spirit")
			eq(t, "result", rec.Rolls[0].Result, tc.result)
			b := st.Fighters["brak"]
			eq(t, "shaken", b.Shaken, !tc.recovered)
			eq(t, "penalty", b.RecoveryPenalty, tc.penalty)
			if !tc.recovered {
				fail(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), "illegal")
				return
			}
			// Fighting 4, Wild 1: the recovery penalty shows on the attack.
			events, _ = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 4, 1)
			v, _ := modValue(one(t, events).Mods, "Shaken recovery")
			eq(t, "attack penalty", v, tc.penalty)
			eq(t, "attack total", one(t, events).Total, 4+tc.penalty)
		})
	}
}

func TestShakenRecoveryPenaltyOptions(t *testing.T) {
	for _, tc := range []struct {
		option string
		second int // recovery penalty on the second action
	}{{PenaltyAll, -2}, {PenaltyFirst, 0}} {
		t.Run(tc.option, func(t *testing.T) {
			st := newState(t, skirmishSetup(map[string]string{OptRecoveryPenalty: tc.option}))
			st.Fighters["brak"].Shaken = true
			_, st = startWith(t, st, skirmishCards, 5, 2) // Spirit 5: success
			events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword", "actions", 2), 2, 2)
			v, _ := modValue(one(t, events).Mods, "Shaken recovery")
			eq(t, "first action", v, -2)
			events, _ = do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 2, 2)
			v, _ = modValue(one(t, events).Mods, "Shaken recovery")
			eq(t, "second action", v, tc.second)
		})
	}
}

func TestRecoveryPenaltyEndsWithTheTurn(t *testing.T) {
	st := newState(t, skirmishSetup(nil))
	st.Fighters["brak"].Shaken = true
	_, st = startWith(t, st, skirmishCards, 5, 2)
	st = endTurns(t, st, "gob1")
	eq(t, "brak's penalty is gone", st.Fighters["brak"].RecoveryPenalty, 0)
}

func TestUnshakeWithBenny(t *testing.T) {
	st := skirmish(t, nil)
	st = endTurns(t, st, "lyra")
	st.Fighters["brak"].Shaken = true
	// Not brak's turn: a Benny still works.
	_, st = do(t, st, engine.PlayerViewer("brak"), cmd(CmdUnshake, "brak"))
	eq(t, "shaken", st.Fighters["brak"].Shaken, false)
	eq(t, "bennies", st.Fighters["brak"].Bennies, 2)    // a PC Wild Card starts with 3
	fail(t, st, gm, cmd(CmdUnshake, "brak"), "illegal") // not Shaken

	st.Fighters["gob1"].Shaken = true
	fail(t, st, gm, cmd(CmdUnshake, "gob1"), "illegal") // Extras have no Bennies
}
