package d20tactical

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// TestMain runs every scenario with the engine checking that Apply never
// writes the engine's Base.
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
	cmd          = enginetest.Cmd
	kinds        = enginetest.Kinds
	find         = enginetest.Find
	decodeOne    = enginetest.DecodeOne
	gm           = engine.GMViewer()
)

func eq[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	enginetest.Eq(t, what, got, want)
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

// start starts the encounter rolling the initiative faces given (one d20
// per combatant, in setup order), then any more faces.
func start(t *testing.T, st *State, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	return do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil), faces...)
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

// tokenOf is b's token for id (empty when b shows none).
func tokenOf(b *board.Board, id string) board.Token {
	for _, t := range b.Tokens {
		if t.ID == id {
			return t
		}
	}
	return board.Token{}
}

// placeOf is where b puts token id.
func placeOf(b *board.Board, id string) board.Placed {
	for _, p := range b.Grid.Places {
		if p.Token == id {
			return p
		}
	}
	return board.Placed{}
}

// statOf is the value of t's stat label, "" when it shows none.
func statOf(t board.Token, label string) string {
	for _, s := range t.Stats {
		if s.Label == label {
			return s.Value
		}
	}
	return ""
}
