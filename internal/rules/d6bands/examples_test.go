package d6bands

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
)

// seeded is a reproducible dice source for the play-throughs.
type seeded struct{ r *rand.Rand }

func (s seeded) Face(sides int) int { return s.r.IntN(sides) + 1 }

func loadExamples(t *testing.T) map[string]engine.Setup {
	t.Helper()
	names, err := fs.Glob(examples.Encounters, "encounters/d6-bands-*.json")
	if err != nil || len(names) < 3 {
		t.Fatalf("want at least 3 d6-bands examples, got %v (%v)", names, err)
	}
	out := map[string]engine.Setup{}
	for _, name := range names {
		raw, err := fs.ReadFile(examples.Encounters, name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := prep.DecodeSetup(raw) // the import format, strictly
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = s
	}
	return out
}

// The examples together use every feature of the battlefield and the
// sheets: every terrain and cover level, line-of-sight blockers, water,
// crowds, contact groups (one a wrestling match), a combatant off the map,
// a prone one, a hidden one, a rider, long, area, reloading weapons of
// every class that matters, and weapons reaching Extreme range.
func TestExamplesUseEveryFeature(t *testing.T) {
	have := map[string]bool{}
	for name, setup := range loadExamples(t) {
		st := newState(t, setup)
		var pcs, npcs int
		for _, c := range st.Combatants {
			if c.PC {
				pcs++
			} else {
				npcs++
			}
			if c.Hidden {
				have["hidden combatant"] = true
			}
		}
		if pcs == 0 || npcs == 0 {
			t.Errorf("%s: want PCs and NPCs", name)
		}
		for _, c := range st.Cells {
			have[fmt.Sprintf("dash %d", c.Dash)] = true
			have[fmt.Sprintf("impassable %d", c.Impassable)] = true
			have[fmt.Sprintf("cover %d", c.Cover)] = true
			have["water"] = have["water"] || c.Water && c.Impassable > 0
			have["blocks"] = have["blocks"] || c.Blocks
			have["crowd"] = have["crowd"] || c.Crowd
		}
		groups := map[string]int{}
		for _, f := range st.Fighters {
			have["off the map"] = have["off the map"] || f.Off
			have["prone"] = have["prone"] || f.Prone
			have["mounted"] = have["mounted"] || f.Mounted
			have["bulk"] = have["bulk"] || f.Bulk > 0
			have["medicine"] = have["medicine"] || f.Skills["medicine"] > 0
			if f.Group != "" {
				groups[f.Group]++
			}
			for _, w := range f.Weapons {
				have["long weapon"] = have["long weapon"] || w.Long
				have["area weapon"] = have["area weapon"] || (w.Area && w.Terror > 0)
				have["reload"] = have["reload"] || w.Reload > 0
				have["firearm"] = have["firearm"] || w.Class == ClassFirearm
				have["crossbow"] = have["crossbow"] || w.Class == ClassCrossbow
				have["bow"] = have["bow"] || w.Class == ClassBow
				have[fmt.Sprintf("extreme %dD", w.Extreme())] = true
			}
		}
		for _, n := range groups {
			have["contact group"] = true
			have["wrestling match"] = have["wrestling match"] || n >= 3
		}
	}
	for _, want := range []string{"dash 3", "dash 4", "dash 5", "impassable 4", "impassable 5", "impassable 6", "cover 1", "cover 2",
		"cover 3", "water", "blocks", "crowd", "hidden combatant", "off the map", "prone", "mounted", "bulk", "medicine",
		"contact group", "wrestling match", "long weapon", "area weapon", "reload", "firearm", "crossbow", "bow", "extreme 5D", "extreme 6D"} {
		if !have[want] {
			t.Errorf("no example has %s", want)
		}
	}
}

// weights make the bot pick attacks more than anything else.
var weights = map[string]int{
	CmdShoot: 12, CmdStrike: 12, CmdAreaFire: 4, CmdMove: 6, CmdDash: 3, CmdAim: 2, CmdReload: 5, CmdStealth: 2, CmdSlipAway: 1,
	CmdFirstAid: 2, CmdDuel: 4, CmdStand: 6, CmdEndTurn: 2, CmdSetCell: 1, CmdPlace: 1, CmdAdjust: 1,
}

// fill picks a value for every field of an action or a decision.
func fill(pick *rand.Rand, fields []engine.Field) map[string]any {
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
			out[f.Name] = []string{"", "a ruling", "Smoke"}[pick.IntN(3)]
		}
	}
	return out
}

// play plays setup to its end with a bot that only picks among what the
// ruleset advertises (as the GM, who may act for everyone), with random
// field values. Every command must be accepted or refused with a clear
// error — never an internal one. It returns the events and the refusals.
func play(t *testing.T, setup engine.Setup, seed uint64) ([]engine.Event, map[string]int) {
	t.Helper()
	pick := rand.New(rand.NewPCG(seed, 7))
	roller := dice.NewRoller(seeded{rand.New(rand.NewPCG(seed, 11))})
	st0, err := engine.NewEncounter(New(), "enc", setup)
	if err != nil {
		t.Fatal(err)
	}
	initial := st0.(*State)
	events, st, err := engine.Decide(New(), initial, gm, "start", engine.NewCommand(engine.KindStart, "", nil), roller)
	if err != nil {
		t.Fatal(err)
	}
	log := slices.Clone(events)
	refused := map[string]int{}
	for i := 0; i < 4000 && st.Core().Status == engine.StatusRunning; i++ {
		var c engine.Command
		if pending := st.Core().Pending; len(pending) > 0 {
			d := pending[pick.IntN(len(pending))]
			if d.Answered {
				for _, p := range pending {
					if !p.Answered {
						d = p
					}
				}
			}
			c = engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": d.Options[pick.IntN(len(d.Options))].Value,
				"values": fill(pick, d.Fields)})
		} else {
			actions := engine.Project(New(), st, gm).Actions
			total := 0
			for _, a := range actions {
				total += weights[a.Kind]
			}
			if total == 0 {
				t.Fatalf("nothing to do: %+v", actions)
			}
			n := pick.IntN(total)
			var a engine.Action
			for _, a = range actions {
				if n -= weights[a.Kind]; n < 0 {
					break
				}
			}
			c = engine.NewCommand(a.Kind, a.Actor, fill(pick, a.Fields))
		}
		events, next, err := engine.Decide(New(), st, gm, "c"+strconv.Itoa(i), c, roller)
		if err != nil {
			if code := fray.ErrorCode(err); code == fray.EINTERNAL || code == fray.EINVALID && c.Kind != CmdSetCell && c.Kind != CmdAdjust {
				raw, _ := json.Marshal(c)
				t.Fatalf("advertised %s was refused: %v", raw, err)
			}
			refused[c.Kind+": "+fray.ErrorMessage(err)]++
			continue
		}
		log = append(log, events...)
		st = next
		for _, v := range []engine.Viewer{gm, engine.PlayerViewer(st.Core().Combatants[0].ID)} {
			if _, err := json.Marshal(engine.Project(New(), st, v)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if st.Core().Status != engine.StatusFinished {
		t.Fatalf("not finished after 4000 commands (round %d)", st.Core().Round)
	}
	assertReplay(t, initial, log, st)
	return log, refused
}

// TestExamplesPlayThrough plays every example to its end, several times,
// picking only among the advertised actions.
func TestExamplesPlayThrough(t *testing.T) {
	kinds := map[string]int{}
	refusals := map[string]int{}
	for name, setup := range loadExamples(t) {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				log, refused := play(t, setup, seed)
				for _, ev := range log {
					kinds[ev.Kind]++
				}
				for k, n := range refused {
					refusals[k] += n
				}
			})
		}
	}
	for _, k := range []string{KindMoved, KindStealth, KindAttack, KindHarm, KindBled, KindReload, KindDefense, KindAreaFire, KindTerror,
		KindDuel, KindFirstAid, KindAim, KindStray, engine.KindCombatantDown, engine.KindCombatantOut, engine.KindEnded, engine.KindDecisionsRevealed} {
		if kinds[k] == 0 {
			t.Errorf("no %s in any play-through", k)
		}
	}
	var lines []string
	for k, n := range refusals {
		lines = append(lines, fmt.Sprintf("%4d %s", n, k))
	}
	sort.Strings(lines)
	for _, l := range lines {
		t.Log("refused:", l)
	}
}
