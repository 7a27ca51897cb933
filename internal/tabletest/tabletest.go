// Package tabletest plays encounters for the page layer's tests: every
// shipped example, its stage dressed (a scene, a portrait, a handout, the
// GM's notes), fought by its ruleset's tactics with the table's talk and
// the stage used between the blows — a chat message, a whisper to one
// player, a free roll, the handout shown to one player, a note written, the
// scene changed — and ended by the GM. So a test that checks what pages
// show over such a game sees every section with something in it.
package tabletest

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/simulate"
)

// A Table is an example encounter ready to play: its ruleset, its state
// before the start, and the player characters' ids.
type Table struct {
	Name string
	RS   engine.Ruleset
	St   engine.State
	PCs  []string
}

// Viewers are who looks at tb: the GM (whose players own the player
// characters, so that decisions waiting on them are the players'), a
// spectator, and each player character's player.
func (tb Table) Viewers() []engine.Viewer {
	gm := engine.GMViewer()
	gm.Players = map[string]string{}
	out := []engine.Viewer{gm, {}}
	for _, id := range tb.PCs {
		gm.Players[id] = "Player of " + id
		out = append(out, engine.PlayerViewer(id))
	}
	return out
}

// Picture is a picture's asset URL, named by name.
func Picture(name string) string {
	sum := sha256.Sum256([]byte(name))
	return engine.AssetPrefix + hex.EncodeToString(sum[:])
}

// Tables are the shipped examples, their stages dressed.
func Tables(t testing.TB) []Table {
	t.Helper()
	exs := shipped(t)
	out := make([]Table, 0, len(exs))
	for _, ex := range exs {
		out = append(out, newTable(t, ex, func(setup *engine.Setup) {
			setup.Scene = Picture("scene")
			setup.Handouts = append(setup.Handouts, engine.Handout{ID: "letter", Title: "The letter", Text: "Meet me at dawn.", Image: Picture("letter")})
			setup.Notes = append(setup.Notes, engine.Note{Subject: "encounter", Text: "They bluff."})
			if len(setup.Combatants) > 0 {
				setup.Combatants[0].Portrait = Picture("face")
			}
		}))
	}
	return out
}

// Example is the shipped example called name as it ships, its stage not
// dressed.
func Example(t testing.TB, name string) Table {
	t.Helper()
	for _, ex := range shipped(t) {
		if ex.Name == name {
			return newTable(t, ex, func(*engine.Setup) {})
		}
	}
	t.Fatalf("no example %s", name)
	return Table{}
}

func shipped(t testing.TB) []examples.Example {
	t.Helper()
	exs, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) == 0 {
		t.Fatal("no examples")
	}
	return exs
}

// newTable is example ex's table, its setup changed by dress first.
func newTable(t testing.TB, ex examples.Example, dress func(*engine.Setup)) Table {
	t.Helper()
	setup, err := engine.DecodeSetup(ex.Data)
	if err != nil {
		t.Fatal(err)
	}
	dress(&setup)
	rs, err := rules.Registry().Get(setup.Ruleset)
	if err != nil {
		t.Fatal(err)
	}
	st, err := engine.NewEncounter(rs, "e", setup)
	if err != nil {
		t.Fatal(ex.Name, err)
	}
	tb := Table{Name: ex.Name, RS: rs, St: st}
	for _, c := range st.Core().Combatants {
		if c.PC {
			tb.PCs = append(tb.PCs, c.ID)
		}
	}
	return tb
}

// Play plays tb as the GM: the start, then up to maxCommands of the
// ruleset's tactics with the stage and talk commands among them, then the
// end. It calls publish with each command's events and the state after
// them, and returns how many commands were played.
func Play(t testing.TB, tb Table, maxCommands int, publish func([]engine.Event, engine.State)) int {
	t.Helper()
	rs, st := tb.RS, tb.St
	roller := dice.NewRoller(dice.NewSeeded(7))
	gm := engine.GMViewer()
	gm.Name = "Dana"
	policy := simulate.PolicyFor(rs)
	initial, err := engine.Copy(st)
	if err != nil {
		t.Fatal(err)
	}
	var log []engine.Event
	commands := 0
	decide := func(cmd engine.Command) ([]engine.Event, error) {
		seq := st.Core().Seq
		events, next, err := engine.DecideOwned(rs, st, gm, "c"+strconv.Itoa(commands), cmd, roller, nil)
		if err != nil {
			if st.Core().Seq != seq { // refused part-way: rebuild from the log
				if st, err = engine.Copy(initial); err != nil {
					t.Fatal(err)
				}
				if err := engine.Replay(rs, st, log); err != nil {
					t.Fatal(err)
				}
			}
			return nil, err
		}
		log = append(log, events...)
		st = next
		commands++
		publish(events, st)
		return events, nil
	}
	must := func(kind string, args map[string]any) {
		t.Helper()
		if _, err := decide(engine.NewCommand(kind, "", args)); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
	}
	must(engine.KindStart, nil)
	stage := []func(){
		func() { must(engine.KindChat, map[string]any{"text": "Hold the line!"}) },
		func() { must(engine.KindChat, map[string]any{"text": "/roll 2d6+1 courage"}) },
		func() { must(engine.KindSetNote, map[string]any{"subject": "encounter", "text": "They bluff, twice."}) },
		func() { must(engine.KindSetScene, map[string]any{"image": Picture("another scene")}) },
		func() { must(engine.KindSetSceneFit, map[string]any{"x": 0, "y": 0, "w": 6, "h": 4}) },
	}
	if len(tb.PCs) > 0 {
		pc := tb.PCs[0]
		stage = append(stage,
			func() { must(engine.KindChat, map[string]any{"text": "psst", "to": pc}) },
			func() { must(engine.KindRevealHandout, map[string]any{"handout": "letter", "to": []string{pc}}) },
			func() { must(engine.KindSetNote, map[string]any{"subject": "combatant:" + pc, "text": "owes the GM"}) },
		)
	}
	for commands < maxCommands && st.Core().Status == engine.StatusRunning {
		if len(stage) > 0 && commands%3 == 0 {
			stage[0]()
			stage = stage[1:]
			continue
		}
		offer := engine.NewOffer(rs, st, nil)
		for refused := 0; ; refused++ {
			cmd, ok := policy.Next(st, offer)
			if !ok || refused > 50 {
				goto end
			}
			_, err := decide(cmd)
			if err == nil {
				break
			}
			if fray.ErrorCode(err) == fray.EINTERNAL {
				t.Fatalf("%s: %v", cmd.Kind, err)
			}
			offer.Refuse(cmd)
		}
	}
end:
	if st.Core().Status != engine.StatusFinished {
		must(engine.KindEnd, nil)
	}
	return commands
}
