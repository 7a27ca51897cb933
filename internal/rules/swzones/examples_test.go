package swzones

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

func loadExamples(t *testing.T) map[string]engine.Setup {
	t.Helper()
	return enginetest.Examples(t, "sw-zones-", nil)
}

func TestExamplesBuild(t *testing.T) {
	melees := 0
	for name, setup := range loadExamples(t) {
		t.Run(name, func(t *testing.T) {
			st := newState(t, setup)
			if n := len(st.Zones); n < 3 || n > 6 {
				t.Errorf("%d zones, want 3–6", n)
			}
			melees += len(st.Melees)
			var wild, extras, pcs, npcs int
			for _, c := range st.Combatants {
				if st.Fighters[c.ID].WildCard {
					wild++
				} else {
					extras++
				}
				if c.PC {
					pcs++
				} else {
					npcs++
				}
			}
			if wild == 0 || extras == 0 || pcs == 0 || npcs == 0 {
				t.Errorf("want Wild Cards, Extras, PCs and NPCs: %d %d %d %d", wild, extras, pcs, npcs)
			}
			if len(st.Fighting()) < 2 {
				t.Error("want two sides")
			}
		})
	}
	if melees == 0 {
		t.Error("no example starts with a melee")
	}
}

// TestExamplesPlayThrough plays every example to its end with a bot that
// picks among the offered actions, checking that every offered action is
// accepted and every result replays.
func TestExamplesPlayThrough(t *testing.T) {
	bot := fightingBot()

	seen := map[string]int{}
	for name, setup := range loadExamples(t) {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				for k, n := range bot.Play(t, New(), setup, seed).Done {
					seen[k] += n
				}
			})
		}
	}
	t.Logf("played: %v", seen)
}

// fightingBot plays sw-zones fights to their end, picking among the
// offered actions with weights that keep a fight moving.
func fightingBot() enginetest.Bot {
	return enginetest.Bot{
		Weights: map[string]int{CmdFight: 12, CmdShoot: 10, CmdEngage: 6, CmdMove: 3, CmdUnshake: 3, CmdDisengage: 2, CmdDefend: 1, CmdEndTurn: 2,
			CmdRun: 2, CmdArea: 3, CmdCast: 3, CmdPush: 2, CmdGrapple: 2, CmdEscape: 3, CmdSpeak: 1, CmdRelease: 1, CmdHold: 1,
			CmdInterrupt: 1, CmdProne: 1, CmdRise: 3, CmdDrop: 1, CmdSetCover: 1},
		Fixed: map[string]map[string]any{CmdSetCover: {"armor": 0}},
		// A target may be in reach of one weapon but not the one picked.
		Refusable: func(_ engine.Command, err error) bool {
			return fray.ErrorCode(err) == fray.EILLEGAL && strings.Contains(err.Error(), "out of range")
		},
		MaxCommands: 3000,
	}
}
