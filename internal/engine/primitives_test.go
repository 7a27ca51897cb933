package engine_test

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

func TestMain(m *testing.M) {
	engine.SetStrictApply(true)
	os.Exit(m.Run())
}

// game plays the toy ruleset command by command, keeping every event so
// that a test can replay the log and compare.
type game struct {
	t       *testing.T
	initial engine.State
	st      engine.State
	log     []engine.Event
	n       int
}

func newGame(t *testing.T, setup engine.Setup) *game {
	t.Helper()
	st, err := engine.NewEncounter(enginetest.Toy{}, "e1", setup)
	if err != nil {
		t.Fatal(err)
	}
	return &game{t: t, initial: st, st: st}
}

func (g *game) try(v engine.Viewer, kind, actor string, args map[string]any, faces ...int) ([]engine.Event, error) {
	g.n++
	events, next, err := engine.Decide(enginetest.Toy{}, g.st, v, fmt.Sprintf("c%d", g.n), engine.NewCommand(kind, actor, args), dice.NewRoller(dice.NewFixed(faces...)))
	if err != nil {
		return nil, err
	}
	g.st = next
	g.log = append(g.log, events...)
	return events, nil
}

func (g *game) do(v engine.Viewer, kind, actor string, args map[string]any, faces ...int) []engine.Event {
	g.t.Helper()
	events, err := g.try(v, kind, actor, args, faces...)
	if err != nil {
		g.t.Fatalf("%s %s: %v", kind, actor, err)
	}
	return events
}

func (g *game) toy() *enginetest.State { return g.st.(*enginetest.State) }

// replayMatches folds the whole log into the initial state and compares.
func (g *game) replayMatches() {
	g.t.Helper()
	replayed, err := engine.Clone(enginetest.Toy{}, g.initial)
	if err != nil {
		g.t.Fatal(err)
	}
	if err := engine.Replay(enginetest.Toy{}, replayed, g.log); err != nil {
		g.t.Fatal(err)
	}
	if a, b := snap(g.t, replayed), snap(g.t, g.st); a != b {
		g.t.Fatalf("replay differs from the live state:\n%s\n%s", a, b)
	}
}

func kinds(events []engine.Event) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = ev.Kind
	}
	return out
}

var (
	gm     = engine.GMViewer()
	heroPl = engine.PlayerViewer("hero")
	orcPl  = engine.PlayerViewer("orc")
)

func withOptions(opts map[string]string) engine.Setup {
	s := enginetest.Setup()
	s.Options = opts
	return s
}

// TestGMCommandWithoutActor: a ruleset's GM command names no combatant.
func TestGMCommandWithoutActor(t *testing.T) {
	g := newGame(t, enginetest.Setup())
	g.do(gm, "start", "", nil)
	for _, tc := range []struct {
		v     engine.Viewer
		actor string
		code  string
	}{
		{heroPl, "", fray.EFORBIDDEN},
		{gm, "hero", fray.EINVALID},
	} {
		if _, err := g.try(tc.v, "weather", tc.actor, map[string]any{"weather": "stormy"}); fray.ErrorCode(err) != tc.code {
			t.Errorf("weather by %+v as %q: %v, want %s", tc.v, tc.actor, err, tc.code)
		}
	}
	g.do(gm, "weather", "", map[string]any{"weather": "stormy"})
	if g.toy().Weather != "stormy" {
		t.Fatal("weather not set")
	}
	has := func(v engine.Viewer) bool {
		return slices.ContainsFunc(engine.Project(enginetest.Toy{}, g.st, v).Actions, func(a engine.Action) bool { return a.Kind == "weather" && a.Actor == "" })
	}
	if !has(gm) || has(heroPl) {
		t.Fatal("the GM command is offered to the wrong viewer")
	}
	if _, err := g.try(gm, "bogus", "", nil); fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("unknown kind: %v", err)
	}
	if _, err := g.try(heroPl, "bogus", "hero", nil); !strings.Contains(fmt.Sprint(err), "unknown command") {
		t.Fatalf("unknown kind with an actor: %v", err)
	}
	g.replayMatches()
}

// TestDecisionWithInputs: an answer carries typed fields, validated by the
// engine; the GM may accept defaults.
func TestDecisionWithInputs(t *testing.T) {
	g := newGame(t, enginetest.Setup())
	g.do(gm, "start", "", nil)
	g.do(gm, "cover", "", nil)
	id := g.st.Core().Pending[0].ID
	for _, values := range []map[string]any{{"percent": 101}, {"percent": -1}, {"percent": "x"}, {"percent": 2.5}, {"nope": 1}} {
		if _, err := g.try(gm, "answer", "", map[string]any{"decision": id, "choice": "set", "values": values}); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("values %v: %v", values, err)
		}
	}
	g.do(gm, "answer", "", map[string]any{"decision": id, "choice": "set", "values": map[string]any{"percent": 40}})
	if g.toy().Cover != 40 {
		t.Fatalf("cover = %d", g.toy().Cover)
	}
	g.do(gm, "cover", "", nil)
	if !slices.ContainsFunc(engine.Project(enginetest.Toy{}, g.st, gm).Actions, func(a engine.Action) bool { return a.Kind == engine.KindAcceptDefaults }) {
		t.Fatal("no accept-defaults action")
	}
	if _, err := g.try(heroPl, engine.KindAcceptDefaults, "", nil); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("a player accepting defaults: %v", err)
	}
	g.do(gm, engine.KindAcceptDefaults, "", nil)
	if g.toy().Cover != 25 || g.st.Core().Waiting() {
		t.Fatalf("defaults gave cover %d", g.toy().Cover)
	}
	if _, err := g.try(gm, engine.KindAcceptDefaults, "", nil); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("accept-defaults with nothing pending: %v", err)
	}
	g.replayMatches()
}

// TestReorderMidRound: Delay moves the actor after another for the rest of
// the round; players never see the hidden spy's place.
func TestReorderMidRound(t *testing.T) {
	g := newGame(t, enginetest.Setup())
	g.do(gm, "start", "", nil)
	if o := g.st.Core().Order; !slices.Equal(o, []string{"hero", "orc", "spy"}) {
		t.Fatalf("order %v", o)
	}
	if _, err := g.try(heroPl, "delay", "hero", map[string]any{"after": "hero"}); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("delaying after oneself: %v", err)
	}
	evs := g.do(heroPl, "delay", "hero", map[string]any{"after": "orc"})
	b := g.st.Core()
	if !slices.Equal(b.Order, []string{"orc", "hero", "spy"}) || b.Current() != "orc" {
		t.Fatalf("after delay: order %v, current %q", b.Order, b.Current())
	}
	for _, ev := range engine.FilterEvents(g.st, heroPl, evs) {
		if bytes.Contains(ev.Data, []byte("spy")) {
			t.Fatalf("the order change shows the hidden spy: %s", ev.Data)
		}
	}
	g.do(gm, "end-turn", "orc", nil)
	if cur := g.st.Core().Current(); cur != "hero" {
		t.Fatalf("after the orc: %q", cur)
	}
	g.do(heroPl, "end-turn", "hero", nil)
	g.do(gm, "end-turn", "spy", nil)
	if b := g.st.Core(); b.Round != 2 || b.Current() != "hero" {
		t.Fatalf("round 2 starts with %q (round %d)", b.Current(), b.Round)
	}
	g.replayMatches()
}

// TestInterruptReturnsTheFloor: a readied combatant takes the floor in the
// middle of another's turn and gives it back; the work that waited runs.
func TestInterruptReturnsTheFloor(t *testing.T) {
	g := newGame(t, enginetest.Setup())
	g.do(gm, "start", "", nil)
	g.do(heroPl, "ready", "hero", nil)
	if cur := g.st.Core().Current(); cur != "orc" {
		t.Fatalf("current %q", cur)
	}
	g.do(heroPl, "interrupt", "hero", nil)
	b := g.st.Core()
	hv := engine.Project(enginetest.Toy{}, g.st, heroPl)
	if b.Current() != "hero" || !slices.Equal(hv.Interrupted, []string{"orc"}) {
		t.Fatalf("interrupting: current %q, interrupted %v", b.Current(), hv.Interrupted)
	}
	if _, err := g.try(gm, "end-turn", "orc", nil); fray.ErrorCode(err) != fray.ENOTYOURTURN {
		t.Fatalf("the interrupted acting: %v", err)
	}
	g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 2)
	evs := g.do(heroPl, "end-turn", "hero", nil)
	if got := kinds(evs); !slices.Equal(got, []string{engine.KindInterruptEnded, "note"}) || evs[1].Text != "after the interruption" {
		t.Fatalf("ending the interruption: %v", got)
	}
	if b := g.st.Core(); b.Current() != "orc" || b.Interrupted() || b.Turn != 1 {
		t.Fatalf("floor not returned: current %q turn %d", b.Current(), b.Turn)
	}
	g.replayMatches()
}

// TestActingSet: a surprise phase lets a whole side act together.
func TestActingSet(t *testing.T) {
	s := withOptions(map[string]string{"surprise": "on"})
	s.Combatants = append(s.Combatants, engine.CombatantSetup{Combatant: engine.Combatant{ID: "elf", Name: "Elf", Side: "a", PC: true}})
	g := newGame(t, s)
	g.do(gm, "start", "", nil)
	b := g.st.Core()
	if !slices.Equal(b.Acting, []string{"hero", "elf"}) || b.Label != "Surprise round" {
		t.Fatalf("acting %v label %q", b.Acting, b.Label)
	}
	elf := engine.PlayerViewer("elf")
	if v := engine.Project(enginetest.Toy{}, g.st, elf); !slices.Equal(v.Acting, []string{"hero", "elf"}) || v.Phase != "Surprise round" {
		t.Fatalf("elf's view: acting %v phase %q", v.Acting, v.Phase)
	}
	g.do(elf, "hit", "elf", map[string]any{"target": "orc"}, 1)
	g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 1)
	if _, err := g.try(gm, "end-turn", "orc", nil); fray.ErrorCode(err) != fray.ENOTYOURTURN {
		t.Fatalf("the surprised acting: %v", err)
	}
	g.do(elf, "end-turn", "elf", nil)
	if b := g.st.Core(); !slices.Equal(b.Acting, []string{"hero"}) {
		t.Fatalf("after the elf: %v", b.Acting)
	}
	if _, err := g.try(elf, "hit", "elf", map[string]any{"target": "orc"}, 1); fray.ErrorCode(err) != fray.ENOTYOURTURN {
		t.Fatalf("acting twice in the phase: %v", err)
	}
	g.do(heroPl, "end-turn", "hero", nil)
	if b := g.st.Core(); b.Current() != "hero" || b.Turn != 0 || b.Label != "" {
		t.Fatalf("after the phase: current %q turn %d label %q", b.Current(), b.Turn, b.Label)
	}
	g.replayMatches()
}

// TestReactionChain: a hit, a riposte to it, a counter to the riposte — two
// reactions deep — then the hit's remaining work; and a reaction spent
// this turn is not offered again.
func TestReactionChain(t *testing.T) {
	g := newGame(t, withOptions(map[string]string{"ripostes": "on", "hp": "5"}))
	g.do(gm, "start", "", nil)
	g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 6)
	riposte := g.st.Core().Pending
	if len(riposte) != 1 || riposte[0].For != "orc" || len(g.st.Core().Queue) != 1 {
		t.Fatalf("no riposte offered: pending %+v queue %+v", riposte, g.st.Core().Queue)
	}
	g.do(orcPl, "answer", "", map[string]any{"decision": riposte[0].ID, "choice": "yes"}, 5)
	counter := g.st.Core().Pending
	if len(counter) != 1 || counter[0].For != "hero" || len(g.st.Core().Queue) != 1 {
		t.Fatalf("no counter offered: pending %+v queue %+v", counter, g.st.Core().Queue)
	}
	evs := g.do(heroPl, "answer", "", map[string]any{"decision": counter[0].ID, "choice": "yes"}, 4)
	if got := kinds(evs); !slices.Equal(got, []string{engine.KindDecisionResolved, "hit", "note"}) || evs[2].Text != "hit done" {
		t.Fatalf("the counter and the rest: %v", got)
	}
	if hp := g.toy().HP; hp["orc"] != 3 || hp["hero"] != 4 {
		t.Fatalf("hp after the chain: %v", hp)
	}
	// The orc already struck back at the hero this turn.
	evs = g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 6)
	if g.st.Core().Waiting() || kinds(evs)[len(evs)-1] != "note" {
		t.Fatalf("a spent reaction was offered again: %v", kinds(evs))
	}
	g.do(heroPl, "end-turn", "hero", nil)
	if len(g.st.Core().Reactions) != 0 {
		t.Fatalf("the ledger outlived the turn: %+v", g.st.Core().Reactions)
	}
	g.replayMatches()
}

// TestDownAndBack: down still takes turns; out leaves the order; both come
// back.
func TestDownAndBack(t *testing.T) {
	g := newGame(t, withOptions(map[string]string{"hp": "1"}))
	g.do(gm, "start", "", nil)
	g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 6)
	orc := func() engine.Combatant { return *g.st.Core().Combatant("orc") }
	if !orc().Down || orc().Out || slices.Contains(g.st.Core().Fighting(), "x") {
		t.Fatalf("orc %+v", orc())
	}
	evs := g.do(heroPl, "end-turn", "hero", nil)
	if g.st.Core().Current() != "orc" || kinds(evs)[len(evs)-1] != "dying" {
		t.Fatalf("a down combatant's turn: %v", kinds(evs))
	}
	g.do(gm, "heal", "", map[string]any{"combatant": "orc"})
	if orc().Down {
		t.Fatal("healed orc still down")
	}
	g.do(gm, "end-turn", "orc", nil)
	g.do(gm, "end-turn", "spy", nil)
	g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 6) // 1 → 0: down
	g.do(heroPl, "hit", "hero", map[string]any{"target": "orc"}, 6) // 0 → −1: out
	if !orc().Out || orc().Down {
		t.Fatalf("orc %+v", orc())
	}
	g.do(heroPl, "end-turn", "hero", nil)
	if cur := g.st.Core().Current(); cur != "spy" {
		t.Fatalf("an out combatant took a turn: %q", cur)
	}
	g.do(gm, "revive", "", map[string]any{"combatant": "orc"})
	if orc().Out {
		t.Fatal("revived orc still out")
	}
	g.do(gm, "end-turn", "spy", nil) // round 2 includes the orc again
	if o := g.st.Core().Order; !slices.Contains(o, "orc") {
		t.Fatalf("round 2 order %v", o)
	}
	g.replayMatches()
}

// TestStrictApplyCatchesBaseWrites: a ruleset whose Apply writes Base
// fails the command.
func TestStrictApplyCatchesBaseWrites(t *testing.T) {
	g := newGame(t, enginetest.Setup())
	g.do(gm, "start", "", nil)
	_, err := g.try(gm, "spoil", "", nil)
	if fray.ErrorCode(err) != fray.EINTERNAL || !strings.Contains(err.Error(), "Base") {
		t.Fatalf("a Base write in Apply: %v", err)
	}
}

// TestHiddenActorIsUnknown: naming a combatant the viewer cannot see gives
// the same answer as naming one that does not exist.
func TestHiddenActorIsUnknown(t *testing.T) {
	g := newGame(t, enginetest.Setup())
	g.do(gm, "start", "", nil)
	_, hidden := g.try(heroPl, "end-turn", "spy", nil)
	_, unknown := g.try(heroPl, "end-turn", "ghost", nil)
	if fray.ErrorCode(hidden) != fray.ENOTFOUND || strings.ReplaceAll(hidden.Error(), "spy", "ghost") != unknown.Error() {
		t.Fatalf("hidden: %v; unknown: %v", hidden, unknown)
	}
	_, hidden = g.try(heroPl, "hit", "hero", map[string]any{"target": "spy"})
	_, unknown = g.try(heroPl, "hit", "hero", map[string]any{"target": "ghost"})
	if fray.ErrorCode(hidden) != fray.ENOTFOUND || strings.ReplaceAll(hidden.Error(), "spy", "ghost") != unknown.Error() {
		t.Fatalf("hidden target: %v; unknown: %v", hidden, unknown)
	}
}

// TestCoreCommandsRejectUnknownFields: every core command decodes strictly.
func TestCoreCommandsRejectUnknownFields(t *testing.T) {
	g := newGame(t, enginetest.Setup())
	if _, err := g.try(gm, "start", "", map[string]any{"now": true}); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("start with a stray field: %v", err)
	}
	g.do(gm, "start", "", nil)
	for _, kind := range []string{"pause", "resume", "end", "reveal", "rewind", "reveal-event", "accept-defaults", "answer"} {
		if _, err := g.try(gm, kind, "", map[string]any{"bogus": 1}); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("%s with a stray field: %v", kind, err)
		}
	}
}
