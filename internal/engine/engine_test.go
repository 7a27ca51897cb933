package engine_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

func newToy(t *testing.T) engine.State {
	t.Helper()
	st, err := engine.NewEncounter(enginetest.Toy{}, "e1", enginetest.Setup())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// decide runs cmd and returns the new state, failing the test on error.
func decide(t *testing.T, st engine.State, v engine.Viewer, cmd engine.Command, faces ...int) (engine.State, []engine.Event) {
	t.Helper()
	events, next, err := engine.Decide(enginetest.Toy{}, st, v, "c", cmd, dice.NewRoller(dice.NewFixed(faces...)))
	if err != nil {
		t.Fatalf("%s: %v", cmd.Kind, err)
	}
	return next, events
}

func snap(t *testing.T, st engine.State) string {
	t.Helper()
	b, err := engine.Snapshot(st)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNewEncounterValidates(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*engine.Setup)
		want   string
	}{
		{"no name", func(s *engine.Setup) { s.Name = "" }, "needs a name"},
		{"one side", func(s *engine.Setup) { s.Sides = s.Sides[:1] }, "two sides"},
		{"duplicate combatant", func(s *engine.Setup) { s.Combatants[1].ID = "hero" }, "used twice"},
		{"unknown side", func(s *engine.Setup) { s.Combatants[0].Side = "zz" }, "unknown side"},
		{"bad id", func(s *engine.Setup) { s.Combatants[0].ID = "a b" }, "letters"},
		{"gm id", func(s *engine.Setup) { s.Combatants[0].ID = "gm" }, "letters"},
		{"unknown option", func(s *engine.Setup) { s.Options = map[string]string{"nope": "1"} }, "no option"},
		{"option out of range", func(s *engine.Setup) { s.Options = map[string]string{"hp": "10"} }, "between 1 and 9"},
		{"option not a number", func(s *engine.Setup) { s.Options = map[string]string{"hp": "x"} }, "whole number"},
		{"bad option choice", func(s *engine.Setup) { s.Options = map[string]string{"surprise": "maybe"} }, "cannot be"},
		{"wrong ruleset", func(s *engine.Setup) { s.Ruleset = "other" }, "not \"toy\""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := enginetest.Setup()
			tc.mutate(&s)
			_, err := engine.NewEncounter(enginetest.Toy{}, "e1", s)
			if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want invalid containing %q", err, tc.want)
			}
		})
	}
	s := enginetest.Setup()
	s.Options = map[string]string{"hp": "1"}
	st, err := engine.NewEncounter(enginetest.Toy{}, "e1", s)
	if err != nil {
		t.Fatal(err)
	}
	if hp := st.(*enginetest.State).HP["orc"]; hp != 1 {
		t.Fatalf("option hp=1 gave %d hit points", hp)
	}
}

func TestDecideAppliesAndReplays(t *testing.T) {
	initial := newToy(t)
	gm := engine.GMViewer()
	st, ev1 := decide(t, initial, gm, engine.NewCommand("start", "", nil))
	st, ev2 := decide(t, st, engine.PlayerViewer("hero"), engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), 5)
	if got := st.(*enginetest.State).HP["orc"]; got != 1 {
		t.Fatalf("orc hp = %d, want 1 after a 5", got)
	}
	if initial.(*enginetest.State).HP["orc"] != 2 || initial.Core().Seq != 0 {
		t.Fatal("Decide mutated its input state")
	}
	all := append(ev1, ev2...)
	for i, ev := range all {
		if ev.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
	}
	if ev2[0].Command != "c" || ev2[0].Round != 1 || len(ev2[0].Rolls) != 1 || ev2[0].Rolls[0].Dice[0].Faces[0] != 5 {
		t.Fatalf("hit event not stamped with command, round and dice: %+v", ev2[0])
	}
	replayed := newToy(t)
	if err := engine.Replay(enginetest.Toy{}, replayed, all); err != nil {
		t.Fatal(err)
	}
	if snap(t, replayed) != snap(t, st) {
		t.Fatalf("replay differs:\n%s\n%s", snap(t, replayed), snap(t, st))
	}
	// A gap in the log is refused.
	if err := engine.Replay(enginetest.Toy{}, newToy(t), all[1:]); err == nil {
		t.Fatal("replay accepted a gap")
	}
}

func TestDecideRejectsAndChangesNothing(t *testing.T) {
	gm := engine.GMViewer()
	hero := engine.PlayerViewer("hero")
	setup := newToy(t)
	running, _ := decide(t, setup, gm, engine.NewCommand("start", "", nil))
	asked, _ := decide(t, running, gm, engine.NewCommand("ask", "", nil))
	cases := []struct {
		name string
		st   engine.State
		v    engine.Viewer
		cmd  engine.Command
		code string
	}{
		{"not started", setup, gm, engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), fray.EILLEGAL},
		{"player starts", setup, hero, engine.NewCommand("start", "", nil), fray.EFORBIDDEN},
		{"start twice", running, gm, engine.NewCommand("start", "", nil), fray.EILLEGAL},
		{"someone else's character", running, engine.PlayerViewer("orc"), engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), fray.EFORBIDDEN},
		{"out of turn", running, gm, engine.NewCommand("hit", "orc", map[string]any{"target": "hero"}), fray.ENOTYOURTURN},
		{"no actor", running, gm, engine.NewCommand("hit", "", nil), fray.EINVALID},
		{"unknown actor", running, gm, engine.NewCommand("hit", "ghost", nil), fray.ENOTFOUND},
		{"unknown field", running, hero, engine.NewCommand("hit", "hero", map[string]any{"targte": "orc"}), fray.EINVALID},
		{"a field in another case", running, hero, engine.NewCommand("hit", "hero", map[string]any{"Target": "orc"}), fray.EINVALID},
		{"pending decision", asked, hero, engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), fray.EPENDING},
		{"player answers GM decision", asked, hero, engine.NewCommand("answer", "", map[string]any{"decision": "d4", "choice": "yes"}), fray.EFORBIDDEN},
		{"answer with a bad choice", asked, gm, engine.NewCommand("answer", "", map[string]any{"decision": "d4", "choice": "maybe"}), fray.EINVALID},
		{"answer unknown decision", asked, gm, engine.NewCommand("answer", "", map[string]any{"decision": "d99", "choice": "yes"}), fray.ENOTFOUND},
		{"unrecorded die", running, hero, engine.NewCommand("cheat", "hero", nil), fray.EINTERNAL},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := snap(t, tc.st)
			_, next, err := engine.Decide(enginetest.Toy{}, tc.st, tc.v, "c", tc.cmd, dice.NewRoller(dice.NewFixed(6)))
			if got := fray.ErrorCode(err); got != tc.code {
				t.Fatalf("code = %q (%v), want %q", got, err, tc.code)
			}
			if next != nil || snap(t, tc.st) != before {
				t.Fatal("a rejected command changed state")
			}
		})
	}
}

func TestPendingDecisionFlow(t *testing.T) {
	gm := engine.GMViewer()
	st, _ := decide(t, newToy(t), gm, engine.NewCommand("start", "", nil))
	st, evs := decide(t, st, gm, engine.NewCommand("ask", "", nil))
	if len(st.Core().Pending) != 1 || st.Core().Pending[0].ID != "d4" {
		t.Fatalf("pending = %+v", st.Core().Pending)
	}
	var carried map[string]string
	if err := st.Core().Pending[0].Decode(&carried); err != nil || carried["secret"] != "note" {
		t.Fatalf("the decision carries %v (%v), want what AskWith was given", carried, err)
	}
	// The player is told who the encounter waits on but never sees the GM's context.
	pv := engine.Project(enginetest.Toy{}, st, engine.PlayerViewer("hero"))
	if !slices.Equal(pv.Waiting, []string{"the GM"}) || len(pv.Pending) != 0 || len(pv.Actions) != 0 {
		t.Fatalf("player view while waiting: waiting=%q pending=%v actions=%v", pv.Waiting, pv.Pending, pv.Actions)
	}
	shown := engine.FilterEvents(st, engine.PlayerViewer("hero"), evs)
	if bytes.Contains(shown[0].Data, []byte("secret")) {
		t.Fatal("decision context leaked to a player")
	}
	st, evs = decide(t, st, gm, engine.NewCommand("answer", "", map[string]any{"decision": "d4", "choice": "no"}))
	if len(st.Core().Pending) != 0 || evs[0].Kind != engine.KindDecisionResolved || evs[1].Text != "ruled no" {
		t.Fatalf("answer gave %+v", evs)
	}
}

func TestProjectionHidesHidden(t *testing.T) {
	gm := engine.GMViewer()
	st, _ := decide(t, newToy(t), gm, engine.NewCommand("start", "", nil))
	// The spy acts in secret: its events are seen by the GM only.
	st, _ = decide(t, st, gm, engine.NewCommand("end-turn", "hero", nil))
	st, _ = decide(t, st, gm, engine.NewCommand("end-turn", "orc", nil))
	st, evs := decide(t, st, gm, engine.NewCommand("hit", "spy", map[string]any{"target": "hero"}), 6)
	if !evs[0].Secret {
		t.Fatal("hidden combatant's event not secret")
	}
	player := engine.PlayerViewer("hero")
	if got := engine.FilterEvents(st, player, evs); len(got) != 0 {
		t.Fatalf("player received %d secret events", len(got))
	}
	pv := engine.Project(enginetest.Toy{}, st, player)
	raw, _ := json.Marshal(pv)
	if bytes.Contains(raw, []byte("spy")) || bytes.Contains(raw, []byte("Spy")) {
		t.Fatalf("player view mentions the hidden spy: %s", raw)
	}
	gv, _ := json.Marshal(engine.Project(enginetest.Toy{}, st, gm))
	if !bytes.Contains(gv, []byte("Spy")) {
		t.Fatal("GM view lacks the spy")
	}
	st, _ = decide(t, st, gm, engine.NewCommand("reveal", "", map[string]any{"combatant": "spy"}))
	raw, _ = json.Marshal(engine.Project(enginetest.Toy{}, st, player))
	if !bytes.Contains(raw, []byte("Spy")) {
		t.Fatal("revealed spy still hidden")
	}
}

func TestGMLifecycle(t *testing.T) {
	gm := engine.GMViewer()
	st, _ := decide(t, newToy(t), gm, engine.NewCommand("start", "", nil))
	st, _ = decide(t, st, gm, engine.NewCommand("pause", "", nil))
	if _, _, err := engine.Decide(enginetest.Toy{}, st, gm, "c", engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), dice.NewRoller(dice.NewFixed(6))); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("paused encounter accepted a command: %v", err)
	}
	st, _ = decide(t, st, gm, engine.NewCommand("resume", "", nil))
	st, _ = decide(t, st, gm, engine.NewCommand("end", "", map[string]any{"winner": "a", "summary": "Heroes prevail"}))
	if st.Core().Status != engine.StatusFinished || st.Core().Outcome.Winner != "a" {
		t.Fatalf("end gave %+v", st.Core())
	}
	if _, _, err := engine.Decide(enginetest.Toy{}, st, gm, "c", engine.NewCommand("pause", "", nil), dice.NewRoller(dice.NewFixed())); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("finished encounter accepted a command: %v", err)
	}
}

func TestDecodeCommand(t *testing.T) {
	cases := []struct {
		in   string
		code string
	}{
		{`{"kind":"hit","actor":"hero","target":"orc"}`, ""},
		{`{"kind":""}`, fray.EINVALID},
		{`[]`, fray.EINVALID},
		{`{"kind":"hit"`, fray.EINVALID},
		{`{"kind":5}`, fray.EINVALID},
		{`"hit"`, fray.EINVALID},
		{`{"kind":"` + strings.Repeat("x", 65) + `"}`, fray.EINVALID},
		{`{"kind":"hit","pad":"` + strings.Repeat("x", engine.MaxCommandBytes) + `"}`, fray.ETOOLARGE},
	}
	for _, tc := range cases {
		_, err := engine.DecodeCommand([]byte(tc.in))
		if fray.ErrorCode(err) != tc.code {
			t.Errorf("%.40s: code %q (%v), want %q", tc.in, fray.ErrorCode(err), err, tc.code)
		}
	}
}

// FuzzDecodeCommand checks that no input panics and that every accepted
// command round-trips through JSON with its kind and actor intact.
func FuzzDecodeCommand(f *testing.F) {
	for _, s := range []string{`{"kind":"move","actor":"a","to":"z"}`, `{}`, `{"kind":1}`, `null`, `{"kind":"a","actor":null}`,
		`{"kind":"move"}}`, `{"kind":"chat","text":"\u0000"}`, `{"kind":"a","b":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := engine.DecodeCommand(data)
		if err != nil {
			if fray.ErrorCode(err) == fray.EINTERNAL {
				t.Fatalf("internal error for client input: %v", err)
			}
			return
		}
		raw, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		again, err := engine.DecodeCommand(raw)
		if err != nil || again.Kind != c.Kind || again.Actor != c.Actor {
			t.Fatalf("round trip changed %q/%q to %q/%q (%v)", c.Kind, c.Actor, again.Kind, again.Actor, err)
		}
	})
}

func TestRoundOrderHidesHiddenCombatants(t *testing.T) {
	st, evs := decide(t, newToy(t), engine.GMViewer(), engine.NewCommand("start", "", nil))
	var round engine.Event
	for _, ev := range evs {
		if ev.Kind == engine.KindRoundStarted {
			round = ev
		}
	}
	if round.Round != 1 {
		t.Fatalf("round-started stamped with round %d, want 1", round.Round)
	}
	shown := engine.FilterEvents(st, engine.PlayerViewer("hero"), []engine.Event{round})
	if len(shown) != 1 || bytes.Contains(shown[0].Data, []byte("spy")) {
		t.Fatalf("player's round order reveals the hidden spy: %s", shown[0].Data)
	}
	if gmShown := engine.FilterEvents(st, engine.GMViewer(), []engine.Event{round}); !bytes.Contains(gmShown[0].Data, []byte("spy")) {
		t.Fatal("GM's round order lacks the spy")
	}
}

// TestHiddenCombatantsQuestionIsSecret: a decision put to a hidden
// combatant never names it to players.
func TestHiddenCombatantsQuestionIsSecret(t *testing.T) {
	gm := engine.GMViewer()
	st, _ := decide(t, newToy(t), gm, engine.NewCommand("start", "", nil))
	next, err := engine.Clone(enginetest.Toy{}, st)
	if err != nil {
		t.Fatal(err)
	}
	events, _, err := engine.Decide(enginetest.Toy{}, next, gm, "c", engine.NewCommand("ask-spy", "hero", nil), dice.NewRoller(dice.NewFixed()))
	if err != nil {
		t.Fatal(err)
	}
	if !events[0].Secret {
		t.Fatal("a question to the hidden spy is not secret")
	}
	if got := engine.FilterEvents(st, engine.PlayerViewer("hero"), events); len(got) != 0 {
		t.Fatalf("the player sees %q", got[0].Text)
	}
}

func TestNamesOfCombatants(t *testing.T) {
	b := &engine.Base{Combatants: []engine.Combatant{{ID: "a", Name: "Ana"}, {ID: "s", Name: "Spy", Hidden: true}}}
	for _, c := range []struct{ id, name, public string }{
		{"a", "Ana", "Ana"},
		{"s", "Spy", "someone unseen"},
		{"x", "x", "x"},
	} {
		if got := b.NameOf(c.id); got != c.name {
			t.Errorf("NameOf(%q) = %q, want %q", c.id, got, c.name)
		}
		if got := b.PublicNameOf(c.id); got != c.public {
			t.Errorf("PublicNameOf(%q) = %q, want %q", c.id, got, c.public)
		}
	}
}
