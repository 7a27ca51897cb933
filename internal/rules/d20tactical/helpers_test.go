package d20tactical

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// TestMain runs every scenario with the engine checking that Apply never
// writes the engine's Base.
func TestMain(m *testing.M) {
	engine.SetStrictApply(true)
	os.Exit(m.Run())
}

// spec is one combatant of a test encounter. Its stats default to every
// ability 10 (all modifiers 0), base attack +2, 20 hit points, speed 30,
// no Dodge, no armour, 3 Life Points, and three weapons: a knife (1d4),
// a pistol (2d6, 30 ft increments, clip 15) and a rifle (2d8, 80 ft, burst
// and automatic, clip 30). Stats entries replace the defaults.
type spec struct {
	ID, Side   string
	X, Y       int
	Posture    string
	Surprised  bool
	PC, Hidden bool
	Stats      map[string]any
}

func (s spec) combatant() engine.CombatantSetup {
	stats := map[string]any{
		"bab": 2, "hp": 20, "lifePoints": 3,
		"weapons": []map[string]any{
			{"id": "knife", "name": "Knife", "damage": "1d4"},
			{"id": "pistol", "name": "Pistol", "damage": "2d6", "range": 30, "clip": 15},
			{"id": "rifle", "name": "Rifle", "damage": "2d8", "range": 80, "burst": true, "auto": true, "clip": 30},
		},
	}
	for k, v := range s.Stats {
		if v == nil {
			delete(stats, k)
		} else {
			stats[k] = v
		}
	}
	start := map[string]any{"x": s.X, "y": s.Y}
	props := map[string]any{}
	if s.Posture != "" {
		props["posture"] = s.Posture
	}
	if s.Surprised {
		props["surprised"] = true
	}
	if len(props) > 0 {
		start["props"] = props
	}
	name := strings.ToUpper(s.ID[:1]) + s.ID[1:]
	return engine.CombatantSetup{
		Combatant: engine.Combatant{ID: s.ID, Name: name, Side: s.Side, PC: s.PC, Hidden: s.Hidden},
		Stats:     mustJSON(stats),
		Start:     mustJSON(start),
	}
}

// field is a battlefield of w × h open squares plus cells, each
// {x, y, props}.
func field(w, h int, cells ...map[string]any) json.RawMessage {
	cs := []map[string]any{}
	for _, c := range cells {
		x, y := c["x"], c["y"]
		props := map[string]any{}
		for k, v := range c {
			if k != "x" && k != "y" {
				props[k] = v
			}
		}
		cs = append(cs, map[string]any{"x": x, "y": y, "props": props})
	}
	return mustJSON(map[string]any{"width": w, "height": h, "cells": cs})
}

func sq(x, y int, kv ...any) map[string]any {
	m := map[string]any{"x": x, "y": y}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// newSetup builds a test encounter on bf between "heroes" and "foes".
// Reaction prompts are off (everyone attacks of opportunity at once) and
// massive damage starts at 50, unless opts says otherwise.
func newSetup(opts map[string]string, bf json.RawMessage, specs ...spec) engine.Setup {
	all := map[string]string{OptReactionPrompts: PromptAuto, OptMassiveThreshold: Threshold50}
	for k, v := range opts {
		all[k] = v
	}
	s := engine.Setup{Name: "Test", Ruleset: ID, Options: all, Battlefield: bf,
		Sides: []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "foes", Name: "Foes"}}}
	for _, sp := range specs {
		s.Combatants = append(s.Combatants, sp.combatant())
	}
	return s
}

func newState(t *testing.T, setup engine.Setup) *State {
	t.Helper()
	st, err := engine.NewEncounter(New(), "enc-1", setup)
	if err != nil {
		t.Fatalf("NewEncounter: %v", err)
	}
	return st.(*State)
}

// start starts the encounter rolling the initiative faces given (one d20
// per combatant, in setup order), then any more faces.
func start(t *testing.T, st *State, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	return do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), faces...)
}

// do decides c with the scripted faces, failing the test on an error or
// on unused faces, and checks that replaying the events onto st gives the
// same state.
func do(t *testing.T, st *State, v engine.Viewer, c engine.Command, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	fixed := dice.NewFixed(faces...)
	events, next, err := engine.Decide(New(), st, v, "c1", c, dice.NewRoller(fixed))
	if err != nil {
		t.Fatalf("%s %s: %v", c.Kind, c.Actor, err)
	}
	if n := fixed.Remaining(); n != 0 {
		t.Fatalf("%s %s: %d scripted faces unused", c.Kind, c.Actor, n)
	}
	assertReplay(t, st, events, next)
	return events, next.(*State)
}

func assertReplay(t *testing.T, initial *State, events []engine.Event, want engine.State) {
	t.Helper()
	replayed, err := engine.Clone(New(), initial)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Replay(New(), replayed, events); err != nil {
		t.Fatalf("replay: %v", err)
	}
	a, _ := engine.Snapshot(replayed)
	b, _ := engine.Snapshot(want)
	if !bytes.Equal(a, b) {
		t.Fatalf("replayed state differs from decided state:\n%s\n%s", a, b)
	}
}

// fail decides c expecting an error with code; st must not change. It
// returns the message.
func fail(t *testing.T, st *State, v engine.Viewer, c engine.Command, code string, faces ...int) string {
	t.Helper()
	before, _ := engine.Snapshot(st)
	events, next, err := engine.Decide(New(), st, v, "c1", c, dice.NewRoller(dice.NewFixed(faces...)))
	if err == nil {
		t.Fatalf("%s %s: want error %s, got %d events", c.Kind, c.Actor, code, len(events))
	}
	if got := fray.ErrorCode(err); got != code {
		t.Fatalf("%s %s: want code %s, got %s (%v)", c.Kind, c.Actor, code, got, err)
	}
	if events != nil || next != nil {
		t.Fatalf("%s: an error must return no events and no state", c.Kind)
	}
	after, _ := engine.Snapshot(st)
	if !bytes.Equal(before, after) {
		t.Fatalf("%s: the state changed on error", c.Kind)
	}
	return fray.ErrorMessage(err)
}

func cmd(kind, actor string, kv ...any) engine.Command {
	fields := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		fields[kv[i].(string)] = kv[i+1]
	}
	return engine.NewCommand(kind, actor, fields)
}

var gm = engine.GMViewer()

// answer answers the pending decision of kind as v.
func answer(t *testing.T, st *State, v engine.Viewer, kind, choice string, values map[string]any, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	d := pendingKind(t, st, kind)
	args := map[string]any{"decision": d.ID, "choice": choice}
	if values != nil {
		args["values"] = values
	}
	return do(t, st, v, engine.NewCommand(engine.KindAnswer, "", args), faces...)
}

func pendingKind(t *testing.T, st *State, kind string) engine.Decision {
	t.Helper()
	for _, d := range st.Pending {
		if d.Kind == kind {
			return d
		}
	}
	t.Fatalf("no pending %s decision (pending: %+v)", kind, st.Pending)
	return engine.Decision{}
}

func kinds(events []engine.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Kind
	}
	return out
}

func find(events []engine.Event, kind string) []engine.Event {
	var out []engine.Event
	for _, e := range events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// decodeOne decodes the only event of kind into v.
func decodeOne(t *testing.T, events []engine.Event, kind string, v any) engine.Event {
	t.Helper()
	es := find(events, kind)
	if len(es) != 1 {
		t.Fatalf("want one %s event, got %d: %v", kind, len(es), kinds(events))
	}
	if err := es[0].Decode(v); err != nil {
		t.Fatal(err)
	}
	return es[0]
}

// attackOf decodes the only attack in events.
func attackOf(t *testing.T, events []engine.Event) AttackRolled {
	t.Helper()
	var a AttackRolled
	decodeOne(t, events, KindAttack, &a)
	return a
}

func modValue(mods []Mod, source string) (int, bool) {
	for _, m := range mods {
		if m.Source == source {
			return m.Value, true
		}
	}
	return 0, false
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// endTurns ends turns until it is id's turn.
func endTurns(t *testing.T, st *State, id string) *State {
	t.Helper()
	for i := 0; st.Current() != id; i++ {
		if i > 20 {
			t.Fatalf("never %s's turn", id)
		}
		_, st = do(t, st, gm, cmd(CmdEndTurn, st.Current()))
	}
	return st
}

// nextTurnOf ends the current turn, then turns until id's.
func nextTurnOf(t *testing.T, st *State, id string) *State {
	t.Helper()
	_, st = do(t, st, gm, cmd(CmdEndTurn, st.Current()))
	return endTurns(t, st, id)
}

func engineViewer(ids ...string) engine.Viewer { return engine.PlayerViewer(ids...) }

type boardToken = board.Token
