package d20duel

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

func loadExamples(t *testing.T) map[string]engine.Setup {
	t.Helper()
	return enginetest.Examples(t, "d20-duel-", nil)
}

// TestExamplesBuild: the examples validate, and together use every
// feature: a duel between two players, two duels at once, a player
// against a GM-run fighter, Grappling, a fighter apart, a hidden one,
// ranged and Auto weapons, an unarmed weapon, armour, wounds and traits
// from earlier, the cinematic option and the GM's rulings.
func TestExamplesBuild(t *testing.T) {
	seen := map[string]bool{}
	for name, setup := range loadExamples(t) {
		t.Run(name, func(t *testing.T) {
			st := newState(t, setup)
			groups := st.components()
			if len(groups) >= 2 {
				seen["two duels at once"] = true
			}
			for _, e := range st.Engagements {
				a, b := st.Combatant(e.A), st.Combatant(e.B)
				switch {
				case a.PC && b.PC:
					seen["player against player"] = true
				case a.PC != b.PC:
					seen["player against the GM"] = true
				}
				seen[e.Distance] = true
			}
			for _, c := range st.Combatants {
				f := st.Fighters[c.ID]
				if c.Hidden {
					seen["hidden"] = true
				}
				if !st.engaged(c.ID) {
					seen["apart"] = true
				}
				if f.Armor.Protection > 0 {
					seen["armour"] = true
				}
				if len(f.Wounds) > 0 {
					seen["earlier wounds"] = true
				}
				if len(f.Traits) > 0 {
					seen["traits"] = true
				}
				for _, w := range f.Weapons {
					switch {
					case w.Ranged && w.Auto > 1:
						seen["auto"] = true
					case w.Ranged:
						seen["ranged"] = true
					case w.Unarmed && w.ID != "fists" || w.Unarmed && w.Name != "Fists":
						seen["own unarmed weapon"] = true
					case w.Hands == 2:
						seen["two-handed"] = true
					}
				}
			}
			for k, v := range setup.Options {
				seen[k+"="+v] = true
			}
		})
	}
	for _, want := range []string{"two duels at once", "player against player", "player against the GM", Striking, Grappling,
		"hidden", "apart", "armour", "earlier wounds", "traits", "auto", "ranged", "own unarmed weapon", "two-handed",
		OptCinematic + "=" + On, OptHurtOrDistracted + "=" + HurtAsk, OptVeto + "=" + VetoAsk} {
		if !seen[want] {
			t.Errorf("no example uses %s", want)
		}
	}
}

// TestExamplesPlayThrough plays every example to its end, several times,
// with a bot that only picks among the offered actions and answers every
// decision with any offered option and field values — now and then taking
// a GM ruling while the stances wait. Every offered action must be
// accepted, or refused with a clear message (never an internal error);
// only the GM's set-distance may be refused (it offers every pair and
// every distance). Every result replays.
func TestExamplesPlayThrough(t *testing.T) {
	bot := enginetest.Bot{
		Weights: map[string]int{CmdEngage: 10, CmdShoot: 6, CmdWait: 2, CmdTest: 1, CmdRecover: 4,
			CmdSetDistance: 1, CmdDriveBack: 1, CmdRollTest: 1, engine.KindReveal: 2},
		ActWhilePending: 1,
		Texts:           []string{"", "vault the table", "kick sand", "snatch the purse"},
		Refusable:       func(c engine.Command, _ error) bool { return c.Kind == CmdSetDistance },
	}
	done := map[string]int{}
	for name, setup := range loadExamples(t) {
		for seed := uint64(1); seed <= 6; seed++ {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				for k, n := range bot.Play(t, New(), setup, seed).Done {
					done[k] += n
				}
			})
		}
	}
	for _, k := range []string{CmdEngage, CmdShoot, CmdWait, CmdSetDistance, CmdRollTest, CmdDriveBack,
		"answer:" + DecStance, "answer:" + DecManeuver, "answer:" + DecHurt, "event:" + KindDisarmed, "event:" + KindManeuver} {
		if done[k] == 0 {
			t.Errorf("the bots never did %s", k)
		}
	}
	keys := make([]string, 0, len(done))
	for k := range done {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var summary string
	for _, k := range keys {
		summary += fmt.Sprintf(" %s=%d", k, done[k])
	}
	t.Logf("played:%s", summary)
}
