package rules_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// TestOneStateManyReaders: the hub projects one frozen state for every
// viewer of an encounter at once (internal/realtime), so projecting a
// state — its board, actions and decisions — must only read it. Every
// example of every ruleset, on its own board and on walled maps, is
// played by a bot, and every few steps a fresh copy (its lazily built
// parts empty, as the owner's copy is) is projected for the GM, each
// player and a spectator concurrently. Under the race detector (CI's race
// step runs it) a ruleset that builds a cache on the state while
// projecting fails here; without it, a map written concurrently still
// does.
func TestOneStateManyReaders(t *testing.T) {
	starts := append(everyExample(t), walledMaps(t)...)
	for _, s := range starts {
		t.Run(s.Name, func(t *testing.T) {
			viewers := []engine.Viewer{engine.GMViewer(), {}}
			for _, c := range s.State.Core().Combatants {
				viewers = append(viewers, engine.PlayerViewer(c.ID))
			}
			pick := rand.New(rand.NewPCG(7, 7))
			st := s.State
			for step := 0; step < 40 && st.Core().Status != engine.StatusFinished; step++ {
				if step%5 == 0 {
					frozen, err := engine.Copy(st)
					if err != nil {
						t.Fatal(err)
					}
					var wg sync.WaitGroup
					for _, v := range viewers {
						for range 2 {
							wg.Go(func() { engine.Project(s.Ruleset, frozen, v) })
						}
					}
					wg.Wait()
				}
				cmd, ok := botCommand(s.Ruleset, st, pick)
				if !ok {
					break
				}
				next, err := engine.Copy(st)
				if err != nil {
					t.Fatal(err)
				}
				_, next, err = engine.DecideOwned(s.Ruleset, next, engine.GMViewer(), fmt.Sprint("c", step), cmd, dice.NewRoller(dice.NewSeeded(pick.Uint64())), nil)
				if err == nil {
					st = next
				}
			}
		})
	}
}
