package d20under

import (
	"encoding/json"
	"sort"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

func loadExamples(t *testing.T) map[string]engine.Setup {
	t.Helper()
	return enginetest.Examples(t, "d20-under-", nil)
}

func TestExamplesBuild(t *testing.T) {
	models := map[string]bool{}
	for name, setup := range loadExamples(t) {
		t.Run(name, func(t *testing.T) {
			st := newState(t, setup)
			models[st.Model] = true
			pcs, npcs := 0, 0
			for _, c := range st.Combatants {
				if c.PC {
					pcs++
				} else {
					npcs++
				}
			}
			if pcs == 0 || npcs == 0 {
				t.Errorf("want PCs and NPCs: %d %d", pcs, npcs)
			}
			if _, err := json.Marshal(ruleset.Board(st, gm)); err != nil {
				t.Fatal(err)
			}
		})
	}
	if !models[board.Grid] || !models[board.Ladder] {
		t.Errorf("the examples use both position models: %v", models)
	}
}

// TestExamplesPlayThrough plays every example to its end, several times,
// with a bot that picks only among the advertised actions (any offered
// field value) and answers every decision: no internal error, the fight
// ends, the log replays to the live state.
func TestExamplesPlayThrough(t *testing.T) {
	seen := map[string]int{}
	for name, setup := range loadExamples(t) {
		for seed := uint64(1); seed <= 6; seed++ {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				done := playOut(t, setup, seed, botWeights, 4000)
				for k, n := range done {
					seen[k] += n
				}
			})
		}
	}
	var ks []string
	for k := range seen {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	t.Logf("played: %v", seen)
	for _, k := range []string{CmdAttack, CmdShoot, CmdEngage, CmdMove, CmdAdvance, CmdWithdraw, CmdCharge, CmdDeathTest,
		CmdTakeInit, CmdQuickStrike, CmdDelay, CmdFeat, CmdStand, CmdSwitch, GMSurprise, CmdSurpriseHit,
		"answer:" + DecFreeAttack, "answer:" + DecHit, "answer:" + DecReclaim} {
		if seen[k] == 0 {
			t.Errorf("no %s in any play-through", k)
		}
	}
}
