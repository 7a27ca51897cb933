package swzones

import (
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"strconv"
	"strings"
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
	names, err := fs.Glob(examples.Encounters, "encounters/sw-zones-*.json")
	if err != nil || len(names) < 3 {
		t.Fatalf("want at least 3 sw-zones examples, got %v (%v)", names, err)
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
	weights := map[string]int{CmdFight: 12, CmdShoot: 10, CmdEngage: 6, CmdMove: 3, CmdUnshake: 3, CmdDisengage: 2, CmdDefend: 1, CmdEndTurn: 2,
		CmdRun: 2, CmdArea: 3, CmdCast: 3, CmdPush: 2, CmdGrapple: 2, CmdEscape: 3, CmdSpeak: 1, CmdRelease: 1, CmdHold: 1,
		CmdInterrupt: 1, CmdProne: 1, CmdRise: 3, CmdDrop: 1, CmdSetCover: 1}
	seen := map[string]bool{}
	for name, setup := range loadExamples(t) {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				pick := rand.New(rand.NewPCG(seed, 7))
				roller := dice.NewRoller(seeded{rand.New(rand.NewPCG(seed, 11))})
				st0, err := engine.NewEncounter(New(), "enc", setup)
				if err != nil {
					t.Fatal(err)
				}
				initial := st0.(*State)
				var log []engine.Event
				events, st, err := engine.Decide(New(), initial, gm, "start", engine.NewCommand(engine.KindStart, "", nil), roller)
				if err != nil {
					t.Fatal(err)
				}
				log = append(log, events...)
				for i := 0; i < 3000 && st.Core().Status == engine.StatusRunning; i++ {
					if pending := st.Core().Pending; len(pending) > 0 {
						d := pending[pick.IntN(len(pending))]
						seen["answer:"+d.Kind] = true
						c := engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": d.Options[pick.IntN(len(d.Options))].Value})
						events, next, err := engine.Decide(New(), st, gm, "c"+strconv.Itoa(i), c, roller)
						if err != nil {
							t.Fatalf("answer %s %q refused: %v", d.Kind, d.Prompt, err)
						}
						log = append(log, events...)
						st = next
						continue
					}
					actions := New().Actions(st, gm)
					total := 0
					for _, a := range actions {
						total += weights[a.Kind]
					}
					n := pick.IntN(total)
					var a engine.Action
					for _, a = range actions {
						if n -= weights[a.Kind]; n < 0 {
							break
						}
					}
					fields := map[string]any{}
					for _, f := range a.Fields {
						switch f.Type {
						case "select":
							fields[f.Name] = f.Options[pick.IntN(len(f.Options))].Value
						case "number":
							fields[f.Name] = f.Min + pick.IntN(f.Max-f.Min+1)
						case "checkbox":
							fields[f.Name] = pick.IntN(2) == 0
						}
					}
					if a.Kind == CmdSetCover {
						fields["armor"] = 0
					}
					seen[a.Kind] = true
					c := engine.NewCommand(a.Kind, a.Actor, fields)
					events, next, err := engine.Decide(New(), st, gm, "c"+strconv.Itoa(i), c, roller)
					if err != nil {
						// A target may be in reach of one weapon but not the one picked.
						if fray.ErrorCode(err) == fray.EILLEGAL && strings.Contains(err.Error(), "out of range") {
							continue
						}
						t.Fatalf("offered %s %v was refused: %v", a.Kind, fields, err)
					}
					log = append(log, events...)
					st = next
				}
				if st.Core().Status != engine.StatusFinished {
					t.Fatalf("not finished after 3000 commands (round %d)", st.Core().Round)
				}
				assertReplay(t, initial, log, st)
				// Every view encodes, for the GM and for each player.
				for _, c := range st.Core().Combatants {
					if _, err := json.Marshal(engine.Project(New(), st, engine.PlayerViewer(c.ID))); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
	t.Logf("played: %v", seen)
}
