package d20duel

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// seeded is a reproducible dice source for the play-through test.
type seeded struct{ r *rand.Rand }

func (s seeded) Face(sides int) int { return s.r.IntN(sides) + 1 }

func loadExamples(t *testing.T) map[string]engine.Setup {
	t.Helper()
	names, err := fs.Glob(examples.Encounters, "encounters/d20-duel-*.json")
	if err != nil || len(names) < 3 {
		t.Fatalf("want at least 3 d20-duel examples, got %v (%v)", names, err)
	}
	out := map[string]engine.Setup{}
	for _, name := range names {
		raw, err := fs.ReadFile(examples.Encounters, name)
		if err != nil {
			t.Fatal(err)
		}
		var s engine.Setup
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = s
	}
	return out
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

// weights are how often the bot picks each action among those offered.
var weights = map[string]int{CmdEngage: 10, CmdShoot: 6, CmdWait: 2, CmdTest: 1, CmdRecover: 4,
	CmdSetDistance: 1, CmdDriveBack: 1, CmdRollTest: 1, engine.KindReveal: 2}

// randomValues fills an action's or a decision's fields with any offered
// value.
func randomValues(pick *rand.Rand, fields []engine.Field) map[string]any {
	out := map[string]any{}
	for _, f := range fields {
		switch f.Type {
		case engine.FieldSelect:
			out[f.Name] = f.Options[pick.IntN(len(f.Options))].Value
		case engine.FieldNumber:
			out[f.Name] = f.Min + pick.IntN(f.Max-f.Min+1)
		case engine.FieldCheckbox:
			out[f.Name] = pick.IntN(2) == 0
		case engine.FieldString:
			out[f.Name] = []string{"", "vault the table", "kick sand", "snatch the purse"}[pick.IntN(4)]
		}
	}
	return out
}

// pickAction picks a weighted random action among the ruleset's offered
// ones (the engine's own GM controls left out).
func pickAction(pick *rand.Rand, actions []engine.Action) (engine.Action, bool) {
	total := 0
	for _, a := range actions {
		total += weights[a.Kind]
	}
	if total == 0 {
		return engine.Action{}, false
	}
	n := pick.IntN(total)
	for _, a := range actions {
		if n -= weights[a.Kind]; n < 0 {
			return a, true
		}
	}
	return engine.Action{}, false
}

// TestExamplesPlayThrough plays every example to its end, several times,
// with a bot that only picks among the offered actions and answers every
// decision with any offered option and field values. Every offered action
// must be accepted, or refused with a clear message (never an internal
// error); only the GM's set-distance may be refused (it offers every pair
// and every distance). Every result replays.
func TestExamplesPlayThrough(t *testing.T) {
	done := map[string]int{}
	for name, setup := range loadExamples(t) {
		for seed := uint64(1); seed <= 6; seed++ {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				pick := rand.New(rand.NewPCG(seed, 7))
				roller := dice.NewRoller(seeded{rand.New(rand.NewPCG(seed, 11))})
				st0, err := engine.NewEncounter(New(), "enc", setup)
				if err != nil {
					t.Fatal(err)
				}
				var log []engine.Event
				events, st, err := engine.Decide(New(), st0, gm, "start", engine.NewCommand(engine.KindStart, "", nil), roller)
				if err != nil {
					t.Fatal(err)
				}
				log = append(log, events...)
				for i := 0; i < 4000 && st.Core().Status == engine.StatusRunning; i++ {
					var c engine.Command
					var offered string
					view := engine.Project(New(), st, gm)
					var open []engine.Decision
					for _, d := range view.Pending {
						open = append(open, d)
					}
					a, ok := pickAction(pick, view.Actions)
					switch {
					case len(open) > 0 && (!ok || pick.IntN(10) > 0):
						d := open[pick.IntN(len(open))]
						c = engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID,
							"choice": d.Options[pick.IntN(len(d.Options))].Value, "values": randomValues(pick, d.Fields)})
						offered = "answer:" + d.Kind
					case ok:
						c = engine.NewCommand(a.Kind, a.Actor, randomValues(pick, a.Fields))
						offered = a.Kind
					default:
						t.Fatalf("nothing offered (phase %q, acting %v)", st.Core().Label, st.Core().Acting)
					}
					events, next, err := engine.Decide(New(), st, gm, "c"+strconv.Itoa(i), c, roller)
					if err != nil {
						code := fray.ErrorCode(err)
						if code == fray.EINTERNAL || offered != CmdSetDistance {
							t.Fatalf("offered %s %s was refused: %v", offered, c.Args, err)
						}
						done["refused:"+offered]++
						continue
					}
					done[offered]++
					log = append(log, events...)
					st = next
				}
				if st.Core().Status != engine.StatusFinished {
					t.Fatalf("not finished after 4000 commands (round %d)", st.Core().Round)
				}
				replayed, _ := engine.Clone(New(), st0)
				if err := engine.Replay(New(), replayed, log); err != nil {
					t.Fatal(err)
				}
				a, _ := engine.Snapshot(replayed)
				b, _ := engine.Snapshot(st)
				if string(a) != string(b) {
					t.Fatal("the replayed log differs from the live state")
				}
				for _, c := range st.Core().Combatants {
					if _, err := json.Marshal(engine.Project(New(), st, engine.PlayerViewer(c.ID))); err != nil {
						t.Fatal(err)
					}
				}
				for _, ev := range log {
					done["event:"+ev.Kind]++
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
