package rules_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/proof"
	"github.com/fray-vtt/fray/internal/rules"
)

// TestEveryRollRecomputes plays every example of every registered ruleset,
// twice, to its end with a bot that plays the player characters as their
// players' pages would — contributing entropy to their commands' dice,
// committing to sealed answers and revealing them — and the rest as the
// GM. From the log alone, as a third party would (package proof), every
// die must recompute from the seed the end publishes, which must match the
// commitment the start published, and every sealed answer must match its
// commitment. The players' entropy must have gone into their dice (in
// every ruleset; a fight may have none, when the GM's commands roll all).
func TestEveryRollRecomputes(t *testing.T) {
	played, contributions := map[string]bool{}, map[string]int{}
	for _, s := range everyExample(t) {
		// Two fights each: a rule-blind GM may end one before a player
		// character rolls anything (a ruling of 473 damage, say).
		for _, seed := range []uint64{11, 12} {
			t.Run(fmt.Sprintf("%s/%d", s.Name, seed), func(t *testing.T) {
				p := enginetest.Bot{Default: 1, Players: true}.Play(t, s.Ruleset, s.Setup, seed)
				bodies := make([]json.RawMessage, len(p.Log))
				contributed := 0
				for i, ev := range p.Log {
					bodies[i], _ = json.Marshal(ev)
					if ev.Draw != nil && ev.Draw.Entropy != "" {
						contributed++
					}
				}
				rep, f := proof.CheckDice(bodies, true)
				if f != nil || rep.Verified == 0 || rep.Pending+rep.Unprovable > 0 {
					t.Fatalf("dice: %+v %v", rep, f)
				}
				if hasPC(p.Initial) {
					contributions[s.Ruleset.ID()] += contributed
				}
				if _, f := proof.CheckSealed(bodies); f != nil {
					t.Fatal(f)
				}
				t.Logf("%d faces recomputed; %d events with a player's entropy", rep.Verified, contributed)
				played[s.Ruleset.ID()] = true
			})
		}
	}
	for _, rs := range rules.Registry().All() {
		if !played[rs.ID()] {
			t.Errorf("%s was not played", rs.ID())
		} else if contributions[rs.ID()] == 0 {
			t.Errorf("%s: no player contributed entropy to any roll", rs.ID())
		}
	}
}

func hasPC(st engine.State) bool {
	for _, c := range st.Core().Combatants {
		if c.PC {
			return true
		}
	}
	return false
}
