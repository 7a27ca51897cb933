package d6bands

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

func TestMain(m *testing.M) {
	engine.SetStrictApply(true)
	os.Exit(m.Run())
}

// spec describes one combatant for a test encounter. Skills default to
// the values of defaultSkills; the weapons to a sword (melee 2D+1) and a
// bow (archery 2D+2, optimal Close/Distant, reload 1).
type spec struct {
	ID, Side      string
	X, Y          int
	Group         string
	Off, Prone    bool
	PC, Hidden    bool
	Skills        map[string]int
	Init          int // Initiative; the fixtures give each combatant its own so the order never hangs on a die
	Toughness     int
	Armor, Bulk   int
	Defense       *int
	Blood         int
	Weapons       []map[string]any
	Mount         map[string]any
	Attrs         map[string]int
	WeaponsAppend []map[string]any
}

var defaultSkills = map[string]int{
	"melee": 13, "archery": 14, "firearms": 14, "crossbows": 13, "athletics": 12, "acrobatics": 10, "swimming": 10,
	"stealth": 12, "perception": 12, "tactics": 11, "willpower": 12, "medicine": 12, "unarmed": 10,
}

var (
	sword = map[string]any{"id": "sword", "name": "Sword", "skill": "melee", "damage": "2D+1"}
	bow   = map[string]any{"id": "bow", "name": "Bow", "skill": "archery", "damage": "2D+2", "optimal": "close/distant", "reload": 1, "class": "bow"}
)

func (s spec) combatant() engine.CombatantSetup {
	skills := map[string]int{}
	for k, v := range defaultSkills {
		skills[k] = v
	}
	for k, v := range s.Skills {
		skills[k] = v
	}
	weapons := s.Weapons
	if weapons == nil {
		weapons = []map[string]any{sword, bow}
	}
	weapons = append(weapons, s.WeaponsAppend...)
	stats := map[string]any{"skills": skills, "weapons": weapons, "initiative": s.Init, "armor": s.Armor, "bulk": s.Bulk}
	if s.Toughness > 0 {
		stats["toughness"] = s.Toughness
	}
	if s.Defense != nil {
		stats["defense"] = *s.Defense
	}
	if s.Blood > 0 {
		stats["blood"] = s.Blood
	}
	if s.Mount != nil {
		stats["mount"] = s.Mount
	}
	if s.Attrs != nil {
		stats["attributes"] = s.Attrs
	}
	start := map[string]any{"x": s.X, "y": s.Y}
	if s.Group != "" {
		start["group"] = s.Group
	}
	props := map[string]any{}
	if s.Off {
		start = map[string]any{}
		props["off"] = true
	}
	if s.Prone {
		props["prone"] = true
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

func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return raw
}

// cellAt is one square's props for grid.
type cellAt struct {
	X, Y  int
	Props map[string]any
}

// grid is a w×h battlefield with the given squares.
func grid(w, h int, cells ...cellAt) json.RawMessage {
	var cs []map[string]any
	for _, c := range cells {
		cs = append(cs, map[string]any{"x": c.X, "y": c.Y, "props": c.Props})
	}
	return mustJSON(map[string]any{"width": w, "height": h, "cells": cs})
}

// newSetup builds a test encounter: sides "heroes" and "foes". Stray
// shots simply hit and GM combatants never spend their Defense Pool
// unless opts says otherwise, so the core scenarios need no answers.
func newSetup(opts map[string]string, battlefield json.RawMessage, specs ...spec) engine.Setup {
	all := map[string]string{OptStrayRuling: StrayAuto, OptNPCDefense: DefenseNone}
	for k, v := range opts {
		all[k] = v
	}
	s := engine.Setup{
		Name: "Test", Ruleset: ID, Options: all, Battlefield: battlefield,
		Sides: []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "foes", Name: "Foes"}},
	}
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

// start starts the encounter: one initiative die per combatant standing
// (all 1s unless faces are given), then extra.
func start(t *testing.T, st *State, faces ...int) *State {
	t.Helper()
	if len(faces) == 0 {
		for _, c := range st.Combatants {
			if c.Fighting() {
				faces = append(faces, 1)
			}
		}
	}
	_, next := do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), faces...)
	return next
}

// do decides cmd with the scripted faces, failing the test on an error or
// on unused faces, and checks that replaying the events onto st gives the
// same state.
func do(t *testing.T, st *State, v engine.Viewer, cmd engine.Command, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	fixed := dice.NewFixed(faces...)
	events, next, err := engine.Decide(New(), st, v, "c1", cmd, dice.NewRoller(fixed))
	if err != nil {
		t.Fatalf("%s %s: %v", cmd.Kind, cmd.Actor, err)
	}
	if n := fixed.Remaining(); n != 0 {
		t.Fatalf("%s %s: %d scripted faces unused", cmd.Kind, cmd.Actor, n)
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

// fail decides cmd expecting an error with code; st must not change.
func fail(t *testing.T, st *State, v engine.Viewer, cmd engine.Command, code string, faces ...int) string {
	t.Helper()
	before, _ := engine.Snapshot(st)
	events, next, err := engine.Decide(New(), st, v, "c1", cmd, dice.NewRoller(dice.NewFixed(faces...)))
	if err == nil {
		t.Fatalf("%s %s: want error %s, got %d events", cmd.Kind, cmd.Actor, code, len(events))
	}
	if got := fray.ErrorCode(err); got != code {
		t.Fatalf("%s %s: want code %s, got %s (%v)", cmd.Kind, cmd.Actor, code, got, err)
	}
	if events != nil || next != nil {
		t.Fatalf("%s: an error must return no events and no state", cmd.Kind)
	}
	after, _ := engine.Snapshot(st)
	if !bytes.Equal(before, after) {
		t.Fatalf("%s: the state changed on error", cmd.Kind)
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

// decodeOne decodes the only event of kind in events into v and returns
// the event.
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

// rollOf returns the roll labelled with prefix in events.
func rollOf(t *testing.T, events []engine.Event, prefix string) dice.Roll {
	t.Helper()
	for _, e := range events {
		for _, r := range e.Rolls {
			if strings.HasPrefix(r.Label, prefix) {
				return r
			}
		}
	}
	var labels []string
	for _, e := range events {
		for _, r := range e.Rolls {
			labels = append(labels, r.Label)
		}
	}
	t.Fatalf("no roll %q among %q", prefix, labels)
	return dice.Roll{}
}

// dieCount is how many dice a roll started with (replacements for sixes
// not counted).
func dieCount(r dice.Roll) int {
	n := 0
	for _, d := range r.Dice {
		if d.Role == "" {
			n++
		}
	}
	return n
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func intp(n int) *int { return &n }

// answer answers the only pending decision of kind as v.
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

// hasMod reports whether a roll has a modifier labelled label with value.
func hasMod(r dice.Roll, label string, value int, unit string) bool {
	for _, m := range r.Mods {
		if strings.Contains(m.Label, label) && m.Value == value && m.Unit == unit {
			return true
		}
	}
	return false
}
