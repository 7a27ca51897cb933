package say

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// table is a player's view of a small fight: Sal, two outlaws alike, a
// question waiting on Sal.
func table() engine.View {
	targets := []engine.Choice{{Value: "o1", Label: "Outlaw 1 (Short)"}, {Value: "o2", Label: "Outlaw 2 (Medium)"}, {Value: "doc", Label: "Doc Holt"}}
	return engine.View{
		Combatants: []engine.Combatant{{ID: "sal", Name: "Sal"}, {ID: "o1", Name: "Outlaw 1"}, {ID: "o2", Name: "Outlaw 2"}, {ID: "doc", Name: "Doc Holt"}},
		Acting:     []string{"sal"},
		Actions: []engine.Action{
			{Kind: "attack", Actor: "sal", Label: "Attack", Fields: []engine.Field{
				{Name: "target", Label: "Target", Type: engine.FieldSelect, Target: true, Options: targets},
				{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: []engine.Choice{{Value: "colt", Label: "Colt (2d6)"}, {Value: "knife", Label: "Knife (1d4)"}}},
				{Name: "bonus", Label: "Bonus", Type: engine.FieldNumber, Min: -4, Max: 4},
				{Name: "wild", Label: "Wild attack", Type: engine.FieldCheckbox},
			}},
			{Kind: "move", Actor: "sal", Label: "Move", Fields: []engine.Field{
				{Name: "to", Label: "To", Type: engine.FieldSelect, Place: true, Options: []engine.Choice{{Value: "saloon", Label: "The saloon"}, {Value: "street", Label: "Main street"}}},
			}},
			{Kind: "end-turn", Actor: "sal", Label: "End turn", EndsTurn: true},
			{Kind: "shout", Actor: "sal", Label: "Shout", Fields: []engine.Field{{Name: "text", Label: "Words", Type: engine.FieldString}}},
		},
		Pending: []engine.Decision{{ID: "d1", For: "sal", Kind: "soak", Prompt: "Sal is hit: soak?", Options: []engine.Choice{{Value: "soak", Label: "Soak"}, {Value: "take", Label: "Take it"}}}},
	}
}

func args(t *testing.T, c engine.Command) map[string]any {
	t.Helper()
	var m map[string]any
	if len(c.Args) > 0 {
		if err := json.Unmarshal(c.Args, &m); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func TestParseReadsPlainSentences(t *testing.T) {
	v := table()
	for _, tc := range []struct {
		text, kind string
		want       map[string]any
	}{
		{"attack Doc with the knife", "attack", map[string]any{"target": "doc", "weapon": "knife", "bonus": float64(0), "wild": false}},
		{"Attack outlaw 2", "attack", map[string]any{"target": "o2", "weapon": "colt", "bonus": float64(0), "wild": false}},
		{"attack holt, weapon colt, bonus 2, wild attack", "attack", map[string]any{"target": "doc", "weapon": "colt", "bonus": float64(2), "wild": true}},
		{"I attack doc with my knife +3", "attack", map[string]any{"target": "doc", "weapon": "knife", "bonus": float64(3), "wild": false}},
		{"move to the saloon", "move", map[string]any{"to": "saloon"}},
		{"move main street", "move", map[string]any{"to": "street"}},
		{"end turn", "end-turn", nil},
		{"end-turn", "end-turn", nil},
		{"Sal: end turn", "end-turn", nil},
		{`shout "Drop it, Holt!"`, "shout", map[string]any{"text": "Drop it, Holt!"}},
		{"shout words hands up", "shout", map[string]any{"text": "hands up"}},
		{"soak", engine.KindAnswer, map[string]any{"decision": "d1", "choice": "soak"}},
		{"answer take it", engine.KindAnswer, map[string]any{"decision": "d1", "choice": "take"}},
	} {
		r, err := Parse(v, tc.text)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		if r.Command.Kind != tc.kind {
			t.Errorf("%q read as %s, want %s", tc.text, r.Command.Kind, tc.kind)
			continue
		}
		got := args(t, r.Command)
		if g, w := jsonOf(got), jsonOf(tc.want); g != w {
			t.Errorf("%q read as %s, want %s", tc.text, g, w)
		}
		if r.Words == "" {
			t.Errorf("%q: no words read back", tc.text)
		}
	}
}

func jsonOf(v any) string {
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		v = nil
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestParseAsksBackOrRefusesWithAReason(t *testing.T) {
	v := table()
	for text, want := range map[string]string{
		"attack outlaw":            "Which Outlaw: 1 (Short) or 2 (Medium)?",
		"attack":                   "Attack — which Target: Outlaw 1 (Short), Outlaw 2 (Medium) or Doc Holt?",
		"move":                     "Move — which To: The saloon or Main street?",
		"dance":                    "You cannot do that now.",
		"attack doc with a banjo":  "the rest names nothing I know",
		"end turn now or never":    "takes nothing more",
		"":                         "Say what to do",
		"attack Vantablack Ossery": "the rest names nothing I know",
	} {
		_, err := Parse(v, text)
		if err == nil {
			t.Errorf("%q was read", text)
			continue
		}
		if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(fray.ErrorMessage(err), want) {
			t.Errorf("%q: %v (%s), want %q", text, err, fray.ErrorCode(err), want)
		}
		// An answer names only what the view holds, never the player's guess.
		if strings.Contains(strings.ToLower(fray.ErrorMessage(err)), "vantablack") || strings.Contains(fray.ErrorMessage(err), "banjo") {
			t.Errorf("%q: the refusal repeats the guess: %v", text, err)
		}
	}
	if _, err := Parse(engine.View{Waiting: []string{"the GM"}}, "end turn"); fray.ErrorCode(err) != fray.EILLEGAL || !strings.Contains(fray.ErrorMessage(err), "Waiting on the GM") {
		t.Errorf("nothing to do: %v", err)
	}
}

func TestParseTellsApartWhoActs(t *testing.T) {
	v := table()
	// A GM with two outlaws alike, neither of them acting.
	v.Acting = nil
	v.Combatants = append(v.Combatants, engine.Combatant{ID: "o3", Name: "Outlaw 1"})
	v.Actions = []engine.Action{{Kind: "end-turn", Actor: "o1", Label: "End turn"}, {Kind: "end-turn", Actor: "o3", Label: "End turn"}}
	_, err := Parse(v, "end turn")
	if err == nil || !strings.Contains(fray.ErrorMessage(err), "Outlaw 1 1 or Outlaw 1 2") {
		t.Fatalf("two alike: %v", err)
	}
	r, err := Parse(v, "Outlaw 1 2: end turn")
	if err != nil || r.Command.Actor != "o3" {
		t.Fatalf("the second one: %+v %v", r.Command, err)
	}
	s, err := Sentence(v, r.Command)
	if err != nil || s != "Outlaw 1 2: End turn" {
		t.Fatalf("sentence: %q %v", s, err)
	}
}

func TestSentenceReadsBack(t *testing.T) {
	v := table()
	for _, c := range []engine.Command{
		engine.NewCommand("attack", "sal", map[string]any{"target": "o2", "weapon": "knife", "bonus": -2, "wild": true}),
		engine.NewCommand("move", "sal", map[string]any{"to": "saloon"}),
		engine.NewCommand("shout", "sal", map[string]any{"text": `he said "no"`}),
		engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": "d1", "choice": "take"}),
	} {
		s, err := Sentence(v, c)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Parse(v, s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		got, want := args(t, r.Command), args(t, c)
		if c.Kind == "shout" {
			want["text"] = "he said 'no'"
		}
		if r.Command.Kind != c.Kind || jsonOf(got) != jsonOf(want) {
			t.Errorf("%q read as %s %s, want %s", s, r.Command.Kind, jsonOf(got), jsonOf(want))
		}
	}
	if _, err := Sentence(v, engine.NewCommand("fly", "sal", nil)); err == nil {
		t.Error("an action not offered has words")
	}
}

func TestCompleteOffersOnlyWhatTheViewHolds(t *testing.T) {
	v := table()
	for text, want := range map[string][]string{
		"":          {"attack", "move", "end turn", "shout", "soak", "take it", "Sal: "},
		"at":        {"attack"},
		"attack ou": {"attack Outlaw 1 (Short)", "attack Outlaw 2 (Medium)"},
		"attack h":  {"attack Doc Holt"},
		"move to ":  {"move to The saloon", "move to Main street"},
		"e":         {"end turn"},
	} {
		got := Complete(v, text)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
	if got := Complete(v, "attack van"); len(got) != 0 {
		t.Errorf("a guess completed: %q", got)
	}
}

func TestInformDescribesTheBoardAndTheTable(t *testing.T) {
	v := table()
	v.Status, v.Round = engine.StatusRunning, 2
	v.Viewer = engine.PlayerViewer("sal")
	v.Attention = &engine.Attention{Turn: []string{"sal"}}
	v.Board = &board.Board{Model: board.Zones,
		Tokens: []board.Token{{ID: "sal", Name: "Sal"}, {ID: "o1", Name: "Outlaw 1", Down: true}, {ID: "o2", Name: "Outlaw 2"}, {ID: "doc", Name: "Doc Holt"}},
		Zones: &board.ZoneMap{
			Areas:  []board.Area{{ID: "street", Name: "Main street"}, {ID: "roof", Name: "The roof"}, {ID: "saloon", Name: "The saloon"}},
			Links:  []board.Link{{A: "saloon", B: "street"}, {A: "street", B: "roof"}},
			Groups: []board.Group{{ID: "g", Area: "saloon", Members: []string{"sal", "o2"}}},
			Places: []board.Placed{{Token: "sal", Area: "saloon", Group: "g"}, {Token: "o2", Area: "saloon", Group: "g"}, {Token: "o1", Area: "street"}, {Token: "doc", Area: "roof"}},
		}}
	got, ok := Inform(v, "describe the board")
	want := "The saloon (where you are): Sal (you) and Outlaw 2 in a melee. Main street (next to yours): Outlaw 1 (down). The roof (2 zones away): Doc Holt."
	if !ok || got != want {
		t.Errorf("describe:\n%s\nwant\n%s", got, want)
	}
	got, ok = Inform(v, "whose turn?")
	want = "Round 2. Acting: Sal (you). Your turn: Sal. Question 1 waits on you: Sal is hit: soak? (Soak or Take it)."
	if !ok || got != want {
		t.Errorf("status:\n%s\nwant\n%s", got, want)
	}
	got, ok = Inform(v, "help")
	if !ok || !strings.Contains(got, "attack <target> [weapon <weapon>] [bonus <bonus>] [wild attack]") || !strings.Contains(got, "soak or take it") {
		t.Errorf("help: %s", got)
	}
	v.Board = &board.Board{Model: board.Grid, Tokens: v.Board.Tokens, Grid: &board.GridMap{Width: 10, Height: 10, Scale: "5 ft",
		Places: []board.Placed{{Token: "o1", X: 4, Y: 0}, {Token: "sal", X: 0, Y: 0}, {Token: "doc", X: 1, Y: 1}},
		Edges:  []board.Edge{{X: 2, Y: 0, Side: board.West}, {X: 2, Y: 1, Side: board.West, Kind: board.EdgeDoor}, {X: 5, Y: 3, Side: board.North, Kind: board.EdgeDoor, Open: true}}}}
	want = "Sal (you) at A1. Doc Holt at B2, 5 ft from you. Outlaw 1 (down) at E1, 20 ft from you. Off the map: Outlaw 2. " +
		"The door between B2 and C2: closed. The door between F3 and F4: open."
	if got := Describe(v); got != want {
		t.Errorf("grid:\n%s\nwant\n%s", got, want)
	}
	if _, ok := Inform(v, "attack"); ok {
		t.Error("an action read as a question to the table")
	}
}

func TestSpokenSaysEveryDieAndModifier(t *testing.T) {
	ev := engine.Event{Kind: "attack", Actor: "sal", Text: "Sal attacks Doc Holt", Involves: []string{"doc"}, Rolls: []dice.Roll{
		{Label: "Fighting", Who: "sal", Dice: []dice.Die{{Sides: 8, Faces: []int{8, 5}}, {Sides: 6, Faces: []int{2}, Role: "wild"}}, Kept: 1,
			Mods: []dice.Mod{{Label: "Wounds", Value: -1}, {Label: "Gang up", Value: 1}}, Total: 13, Target: 4, Compare: dice.AtLeast, Result: "success"},
		{Label: "Damage", Dice: []dice.Die{{Sides: 4, Faces: []int{3}}}, Mod: 2, Total: 5},
	}}
	got := Spoken(ev, map[string]string{"sal": "Sal"})
	want := "Sal attacks Doc Holt. Fighting (Sal): a d8 rolled 8, aced, then 5; a d6 (wild) rolled 2, not kept; wounds minus 1; gang up plus 1; total 13, needs 4: success. Damage: a d4 rolled 3; plus 2; total 5."
	if got != want {
		t.Errorf("spoken:\n%s\nwant\n%s", got, want)
	}
	if c := Concerns(ev); strings.Join(c, " ") != "sal doc" {
		t.Errorf("concerns %v", c)
	}
}
