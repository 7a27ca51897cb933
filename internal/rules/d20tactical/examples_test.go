package d20tactical

import (
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
)

// seeded is a reproducible dice source for the play-through test.
type seeded struct{ r *rand.Rand }

func (s seeded) Face(sides int) int { return s.r.IntN(sides) + 1 }

func loadExamples(t *testing.T) map[string]engine.Setup {
	t.Helper()
	names, err := fs.Glob(examples.Encounters, "encounters/d20-tactical-*.json")
	if err != nil || len(names) < 3 {
		t.Fatalf("want at least 3 d20-tactical examples, got %v (%v)", names, err)
	}
	out := map[string]engine.Setup{}
	for _, name := range names {
		raw, err := fs.ReadFile(examples.Encounters, name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := prep.DecodeSetup(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = s
	}
	return out
}

// TestExamplesBuild: every example builds, and together they use every
// feature of the battlefield and the stat block.
func TestExamplesBuild(t *testing.T) {
	seen := map[string]bool{}
	for name, setup := range loadExamples(t) {
		st := newState(t, setup)
		for _, c := range st.Grid.Cells {
			switch {
			case c.Wall:
				seen["wall"] = true
			case c.Pit:
				seen["pit"] = true
			}
			if c.Obstacle != "" {
				seen["obstacle "+c.Obstacle] = true
			}
			if c.Material != 0 {
				seen["material"] = true
			}
			if c.Difficult {
				seen["difficult"] = true
			}
			if c.JumpDC != 0 {
				seen["jumpDC"] = true
			}
		}
		for _, c := range st.Combatants {
			f := st.Fighters[c.ID]
			seen["posture "+f.Posture] = true
			if f.Surprised {
				seen["surprised"] = true
			}
			if c.Hidden {
				seen["hidden"] = true
			}
			if c.PC {
				seen["pc"] = true
			} else {
				seen["npc"] = true
			}
			if f.Sheet.Dodge > 0 {
				seen["dodge"] = true
			}
			if a := f.Sheet.Armor; a != nil {
				seen["armour"] = true
				if len(a.DC) > 0 {
					seen["armour DC"] = true
				}
				if f.ArmorWorn() {
					seen["worn armour"] = true
				}
			}
			if f.Sheet.Wounds > 0 {
				seen["wounds"] = true
			}
			if _, ok := f.Sheet.Skills["treatInjury"]; ok {
				seen["treat injury"] = true
			}
			for _, w := range f.Weapons {
				switch {
				case w.Auto:
					seen["auto"] = true
				case w.Burst:
					seen["burst"] = true
				case w.Thrown:
					seen["thrown"] = true
				case w.Ranged():
					seen["ranged"] = true
				default:
					seen["melee"] = true
				}
				if w.Reach > Square {
					seen["reach"] = true
				}
				if w.Crit != 0 && w.Crit < 20 {
					seen["crit range"] = true
				}
				if w.Fumble > 1 {
					seen["fumble range"] = true
				}
			}
		}
		for k, v := range setup.Options {
			if o := optionByName(k); o != nil && v != o.Default {
				seen["option "+k] = true
			}
		}
		_ = name
	}
	for _, want := range []string{"wall", "pit", "obstacle low", "obstacle half", "obstacle high", "material", "difficult", "jumpDC",
		"posture standing", "posture crouched", "posture prone", "surprised", "hidden", "pc", "npc", "dodge", "armour", "armour DC",
		"worn armour", "wounds", "treat injury", "auto", "thrown", "ranged", "melee", "reach", "crit range", "fumble range",
		"option " + OptCoverRuling, "option " + OptEffectDuration, "option " + OptEndurance, "option " + OptCritConfirm} {
		if !seen[want] {
			t.Errorf("no example uses %s", want)
		}
	}
}

func optionByName(name string) *engine.OptionSpec {
	for i := range optionSpecs {
		if optionSpecs[i].Name == name {
			return &optionSpecs[i]
		}
	}
	return nil
}

// randomValues fills an action's or a decision's fields at random, within
// what each field offers.
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
			out[f.Name] = "a thing"
		}
	}
	return out
}

// botWeights favour fighting, so that fights end.
var botWeights = map[string]int{
	CmdAttack: 30, CmdFullAttack: 8, CmdCharge: 8, CmdMove: 6, CmdStep: 1, CmdRun: 2, CmdPosture: 2, CmdJump: 2,
	CmdObject: 1, CmdReload: 10, CmdClearJam: 10, CmdPickUp: 10, CmdTreat: 4, CmdDelay: 1, CmdReady: 2, CmdInterrupt: 2,
	CmdEndTurn: 2, CmdSetCover: 1, CmdDamage: 1, CmdHeal: 1, CmdArmour: 1, CmdLifePoints: 1, CmdClearEffects: 1,
	engine.KindReveal: 1,
}

// play plays setup to its end as the GM with a bot that picks only among
// the actions offered, filling their fields at random. Every offered
// action must be accepted or refused with a clear error (never an internal
// one). It returns the initial state, the log and the final state, and
// counts what happened in seen.
func play(t *testing.T, setup engine.Setup, seed uint64, seen map[string]int) (*State, []engine.Event, engine.State) {
	t.Helper()
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
	for i := 0; i < 4000 && st.Core().Status == engine.StatusRunning; i++ {
		var c engine.Command
		if pending := st.Core().Pending; len(pending) > 0 {
			d := pending[pick.IntN(len(pending))]
			seen["answer:"+d.Kind]++
			c = engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID,
				"choice": d.Options[pick.IntN(len(d.Options))].Value, "values": randomValues(pick, d.Fields)})
		} else {
			view := engine.Project(New(), st, gm)
			total := 0
			for _, a := range view.Actions {
				total += botWeights[a.Kind]
			}
			if total == 0 {
				t.Fatalf("nothing to do: %+v", view.Actions)
			}
			n := pick.IntN(total)
			var a engine.Action
			for _, a = range view.Actions {
				if n -= botWeights[a.Kind]; n < 0 {
					break
				}
			}
			c = engine.NewCommand(a.Kind, a.Actor, randomValues(pick, a.Fields))
		}
		events, next, err := engine.Decide(New(), st, gm, "c"+strconv.Itoa(i), c, roller)
		if err != nil {
			code := fray.ErrorCode(err)
			if code == fray.EINTERNAL || c.Kind == engine.KindAnswer {
				t.Fatalf("%s %s %s refused: %v", c.Kind, c.Actor, c.Args, err)
			}
			seen["refused:"+c.Kind]++
			if testing.Verbose() && seed == 1 {
				t.Logf("refused %s: %v", c.Kind, err)
			}
			continue
		}
		seen[c.Kind]++
		for _, e := range events {
			seen["event:"+e.Kind]++
		}
		log = append(log, events...)
		st = next
	}
	if st.Core().Status != engine.StatusFinished {
		t.Fatalf("not finished after 4000 commands (round %d)", st.Core().Round)
	}
	return initial, log, st
}

// TestExamplesPlayThrough plays every example to its end, several times,
// with a bot that picks among the offered actions; every result replays.
func TestExamplesPlayThrough(t *testing.T) {
	seen := map[string]int{}
	for name, setup := range loadExamples(t) {
		for seed := uint64(1); seed <= 6; seed++ {
			t.Run(name+"/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
				initial, log, st := play(t, setup, seed, seen)
				assertReplay(t, initial, log, st)
				for _, c := range st.Core().Combatants {
					v := engine.Project(New(), st, engine.PlayerViewer(c.ID))
					if _, err := json.Marshal(v); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
	for _, k := range []string{CmdAttack, CmdMove, CmdCharge, CmdReload, "answer:" + DecCritical, "answer:" + DecCover,
		"event:" + KindFumble, "event:" + KindDodge, "event:" + KindStabilize, "event:" + engine.KindEnded} {
		if seen[k] == 0 {
			t.Errorf("the bot never saw %s", k)
		}
	}
	t.Logf("seen: %v", seen)
}
