package d6bands

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

func TestMain(m *testing.M) { enginetest.Main(m) }

// scenario drives the ruleset through the scenarios; the short names below are
// its helpers as the scenarios call them.
var scenario = enginetest.Kit[*State]{Rules: New()}

var (
	newState     = scenario.New
	do           = scenario.Do
	fail         = scenario.Fail
	answer       = scenario.AnswerKind
	assertReplay = scenario.AssertReplay
	pendingKind  = enginetest.PendingKind
	rollOf       = enginetest.RollLabelled
	cmd          = enginetest.Cmd
	kinds        = enginetest.Kinds
	find         = enginetest.Find
	decodeOne    = enginetest.DecodeOne
	mustJSON     = enginetest.MustJSON
	gm           = engine.GMViewer()
)

func eq[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	enginetest.Eq(t, what, got, want)
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

func intp(n int) *int { return &n }

// hasMod reports whether a roll has a modifier labelled label with value.
func hasMod(r dice.Roll, label string, value int, unit string) bool {
	for _, m := range r.Mods {
		if strings.Contains(m.Label, label) && m.Value == value && m.Unit == unit {
			return true
		}
	}
	return false
}

// optionsWith is every option at its default but those of opts.
func optionsWith(opts map[string]string) map[string]string { return enginetest.Options(New(), opts) }
