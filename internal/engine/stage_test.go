package engine_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

func asset(c byte) string { return engine.AssetPrefix + strings.Repeat(string(c), 64) }

// staged is the toy setup with two players, portraits (the hidden spy's
// too), a scene, a prepared scene, two handouts and notes.
func staged() engine.Setup {
	s := twoPlayers()
	s.Combatants[0].Portrait = asset('a')
	s.Combatants[2].Portrait = asset('b') // the hidden spy's
	s.Combatants[2].Notes = "SPYNOTE works for the duke"
	s.Scene = asset('c')
	s.Scenes = []engine.Scene{{Name: "The ford", Image: asset('d')}}
	s.Handouts = []engine.Handout{
		{ID: "letter", Title: "LETTERTITLE", Text: "LETTERTEXT meet at dawn", Image: asset('e')},
		{ID: "map", Title: "Map", Image: asset('f')},
	}
	s.Notes = []engine.Note{{Subject: "encounter", Text: "ENCNOTE the bridge collapses"}, {Subject: "zone:ford", Text: "ZONENOTE deep water"}}
	return s
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStageIsFilteredForPlayers: players see the scene and the portraits
// of the combatants they see, never the notes, the unrevealed handouts or
// a hidden combatant's portrait — in the view, the events and the list of
// pictures the server would serve them.
func TestStageIsFilteredForPlayers(t *testing.T) {
	g := newGame(t, staged())
	g.do(gm, engine.KindStart, "", nil)
	g.do(gm, engine.KindSetNote, "", map[string]any{"subject": "combatant:orc", "text": "ORCNOTE has the key"})
	secrets := []string{"SPYNOTE", "ENCNOTE", "ZONENOTE", "ORCNOTE", "LETTER", asset('b')[8:], asset('e')[8:], asset('f')[8:], asset('d')[8:]}
	for _, v := range []engine.Viewer{heroPl, orcPl} {
		view := engine.Project(enginetest.Toy{}, g.st, v)
		all := jsonOf(t, view) + jsonOf(t, engine.FilterEvents(g.st, v, g.log)) + jsonOf(t, engine.AssetsSeen(enginetest.Toy{}, g.st, v))
		for _, s := range secrets {
			if strings.Contains(all, s) {
				t.Errorf("%v sees %q", v.Controls, s)
			}
		}
		if view.Scene != asset('c') {
			t.Errorf("%v: scene %q", v.Controls, view.Scene)
		}
		if !slices.Contains(engine.AssetsSeen(enginetest.Toy{}, g.st, v), asset('a')) {
			t.Errorf("%v cannot see the hero's portrait", v.Controls)
		}
	}
	gv := engine.Project(enginetest.Toy{}, g.st, gm)
	if len(gv.Notes) != 4 || len(gv.Handouts) != 2 || len(gv.Scenes) != 1 {
		t.Errorf("GM view: notes %v, handouts %v, scenes %v", gv.Notes, gv.Handouts, gv.Scenes)
	}
	if seen := engine.AssetsSeen(enginetest.Toy{}, g.st, gm); len(seen) != 6 {
		t.Errorf("GM assets %v", seen)
	}
	if gv.Board != nil {
		for _, tok := range gv.Board.Tokens {
			if tok.ID == "hero" && tok.Portrait != asset('a') {
				t.Errorf("hero token portrait %q", tok.Portrait)
			}
		}
	}

	// Revealing the spy shows its portrait.
	g.do(gm, engine.KindReveal, "", map[string]any{"combatant": "spy"})
	if !slices.Contains(engine.AssetsSeen(enginetest.Toy{}, g.st, orcPl), asset('b')) {
		t.Error("a revealed combatant's portrait stays unseen")
	}
}

// TestHandoutToOnePlayer: a handout shown to one player reaches that
// player alone, live and in the history, and stays in their list.
func TestHandoutToOnePlayer(t *testing.T) {
	g := newGame(t, staged())
	g.do(gm, engine.KindStart, "", nil)
	evs := g.do(gm, engine.KindRevealHandout, "", map[string]any{"handout": "letter", "to": "hero"})
	if len(evs) != 1 || evs[0].Kind != engine.KindHandoutRevealed {
		t.Fatalf("events %+v", evs)
	}
	if got := engine.FilterEvents(g.st, heroPl, evs); len(got) != 1 || !strings.Contains(string(got[0].Data), "LETTERTEXT") {
		t.Errorf("hero gets %+v", got)
	}
	if got := engine.FilterEvents(g.st, orcPl, g.log); strings.Contains(jsonOf(t, got), "LETTER") {
		t.Error("the other player gets the handout")
	}
	hv, ov := engine.Project(enginetest.Toy{}, g.st, heroPl), engine.Project(enginetest.Toy{}, g.st, orcPl)
	if len(hv.Handouts) != 1 || hv.Handouts[0].Image != asset('e') || hv.Handouts[0].To != nil {
		t.Errorf("hero's handouts %+v", hv.Handouts)
	}
	if len(ov.Handouts) != 0 || slices.Contains(engine.AssetsSeen(enginetest.Toy{}, g.st, orcPl), asset('e')) {
		t.Errorf("orc's handouts %+v", ov.Handouts)
	}
	if !slices.Contains(engine.AssetsSeen(enginetest.Toy{}, g.st, heroPl), asset('e')) {
		t.Error("hero may not fetch the handout's picture")
	}
	// Again to the same player: refused. To everyone: the orc gets it too.
	if _, err := g.try(gm, engine.KindRevealHandout, "", map[string]any{"handout": "letter", "to": []string{"hero"}}); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Errorf("second reveal: %v", err)
	}
	g.do(gm, engine.KindRevealHandout, "", map[string]any{"handout": "letter"})
	if ov := engine.Project(enginetest.Toy{}, g.st, orcPl); len(ov.Handouts) != 1 {
		t.Errorf("after reveal to everyone, orc has %+v", ov.Handouts)
	}
	g.replayMatches()
}

// TestStageCommands: the scene changes for everyone; notes and handouts
// added in play are the GM's; players may issue none of them; a rewind
// neither counts nor undoes them.
func TestStageCommands(t *testing.T) {
	g := newGame(t, staged())
	g.do(gm, engine.KindStart, "", nil)
	g.do(gm, engine.KindSetScene, "", map[string]any{"image": asset('d')})
	if v := engine.Project(enginetest.Toy{}, g.st, orcPl); v.Scene != asset('d') {
		t.Errorf("scene %q", v.Scene)
	}
	g.do(gm, engine.KindAddHandout, "", map[string]any{"title": "Note found", "text": "ADDED under the table"})
	g.do(gm, engine.KindSetNote, "", map[string]any{"subject": "encounter", "text": "ENCNOTE v2"})
	for _, v := range []engine.Viewer{heroPl, orcPl} {
		if s := jsonOf(t, engine.FilterEvents(g.st, v, g.log)) + jsonOf(t, engine.Project(enginetest.Toy{}, g.st, v)); strings.Contains(s, "ADDED") || strings.Contains(s, "ENCNOTE") {
			t.Errorf("%v sees an added handout or a note", v.Controls)
		}
	}
	for _, c := range []struct {
		v    engine.Viewer
		kind string
		args map[string]any
		code string
	}{
		{heroPl, engine.KindSetNote, map[string]any{"subject": "encounter", "text": "x"}, fray.EFORBIDDEN},
		{heroPl, engine.KindRevealHandout, map[string]any{"handout": "letter"}, fray.EFORBIDDEN},
		{heroPl, engine.KindSetScene, map[string]any{"image": ""}, fray.EFORBIDDEN},
		{gm, engine.KindSetScene, map[string]any{"image": "http://evil.example/x.svg"}, fray.EINVALID},
		{gm, engine.KindSetNote, map[string]any{"subject": "combatant:nobody", "text": "x"}, fray.EINVALID},
		{gm, engine.KindSetNote, map[string]any{"subject": "encounter", "text": strings.Repeat("x", engine.MaxNoteRunes+1)}, fray.EINVALID},
		{gm, engine.KindRevealHandout, map[string]any{"handout": "map", "to": "orc-not"}, fray.EINVALID},
		{gm, engine.KindRevealHandout, map[string]any{"handout": "nope"}, fray.ENOTFOUND},
		{gm, engine.KindAddHandout, map[string]any{"title": "x"}, fray.EINVALID},
	} {
		if _, err := g.try(c.v, c.kind, "", c.args); fray.ErrorCode(err) != c.code {
			t.Errorf("%s %v: %v, want %s", c.kind, c.args, err, c.code)
		}
	}
	// An action, then a rewind: the stage stays as it is.
	g.do(gm, "weather", "", map[string]any{"weather": "rain"})
	evs, next, err := engine.DecideWith(enginetest.Toy{}, g.st, gm, "rw", engine.NewCommand(engine.KindRewind, "", nil), dice.NewRoller(dice.NewFixed()), gameHistory{g})
	if err != nil {
		t.Fatal(err)
	}
	g.st, g.log = next, append(g.log, evs...)
	if strings.Contains(g.toy().Weather, "rain") {
		t.Error("the rewind did not undo the weather")
	}
	b := g.st.Core()
	if b.Stage.Scene != asset('d') || b.Stage.Note("encounter") != "ENCNOTE v2" || len(b.Stage.Handouts) != 3 {
		t.Errorf("stage after a rewind: %+v", b.Stage)
	}
	g.replayMatches()
}

// gameHistory is a game's log as the engine's History.
type gameHistory struct{ g *game }

func (h gameHistory) Events(after, upto int64) ([]engine.Event, error) {
	var out []engine.Event
	for _, ev := range h.g.log {
		if ev.Seq > after && ev.Seq <= upto {
			out = append(out, ev)
		}
	}
	return out, nil
}

func (h gameHistory) StateAt(seq int64) (engine.State, error) {
	st, err := engine.Clone(enginetest.Toy{}, h.g.initial)
	if err != nil {
		return nil, err
	}
	evs, _ := h.Events(0, seq)
	return st, engine.Replay(enginetest.Toy{}, st, evs)
}

func TestSetupStageChecked(t *testing.T) {
	for name, mutate := range map[string]func(*engine.Setup){
		"portrait not an asset": func(s *engine.Setup) { s.Combatants[0].Portrait = "javascript:alert(1)" },
		"scene not an asset":    func(s *engine.Setup) { s.Scene = "/static/x.png" },
		"handout twice":         func(s *engine.Setup) { s.Handouts = append(s.Handouts, s.Handouts[0]) },
		"note on no one":        func(s *engine.Setup) { s.Notes = append(s.Notes, engine.Note{Subject: "combatant:x", Text: "y"}) },
	} {
		s := staged()
		mutate(&s)
		if _, err := engine.NewEncounter(enginetest.Toy{}, "e", s); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSceneFit: the map's fit comes from the setup, the GM changes and
// clears it live, everyone's view carries it, bad fits and players are
// refused; a zone's picture needs a zone on the board (the toy has none).
func TestSceneFit(t *testing.T) {
	s := staged()
	s.SceneFit = &engine.SceneFit{X: -0.5, Y: 0, W: 20, H: 12}
	g := newGame(t, s)
	g.do(gm, engine.KindStart, "", nil)
	if v := engine.Project(enginetest.Toy{}, g.st, orcPl); v.SceneFit == nil || *v.SceneFit != *s.SceneFit {
		t.Fatalf("player's fit %+v", v.SceneFit)
	}
	g.do(gm, engine.KindSetSceneFit, "", map[string]any{"x": 1, "y": 2, "w": 10.5, "h": 6})
	if v := engine.Project(enginetest.Toy{}, g.st, heroPl); v.SceneFit == nil || *v.SceneFit != (engine.SceneFit{X: 1, Y: 2, W: 10.5, H: 6}) {
		t.Errorf("after set-scene-fit: %+v", v.SceneFit)
	}
	for _, bad := range []map[string]any{{"w": -1, "h": 3}, {"w": 3, "h": 0}, {"x": 5000, "w": 2, "h": 2}, {"w": "wide"}} {
		if _, err := g.try(gm, engine.KindSetSceneFit, "", bad); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("%v: %v", bad, err)
		}
	}
	if _, err := g.try(heroPl, engine.KindSetSceneFit, "", map[string]any{"w": 3, "h": 3}); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Errorf("a player sets the fit: %v", err)
	}
	g.do(gm, engine.KindSetSceneFit, "", map[string]any{"w": 0, "h": 0})
	if v := engine.Project(enginetest.Toy{}, g.st, heroPl); v.SceneFit != nil {
		t.Errorf("cleared fit %+v", v.SceneFit)
	}
	if _, err := g.try(gm, engine.KindSetSceneFit, "", map[string]any{"w": 0, "h": 0}); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Errorf("clearing twice: %v", err)
	}
	if _, err := g.try(gm, engine.KindSetZoneScene, "", map[string]any{"zone": "ford", "image": asset('d')}); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("a zone picture without zones: %v", err)
	}
	bad := staged()
	bad.SceneFit = &engine.SceneFit{W: -2, H: 1}
	if _, err := engine.NewEncounter(enginetest.Toy{}, "e2", bad); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("a setup with a bad fit: %v", err)
	}
	g.replayMatches()
}

// TestLastNoteDeletedIsNoNotes: the GM emptying the only note of an
// encounter leaves it with no notes — the same state a snapshot of it
// decodes to, and its replay folds to.
func TestLastNoteDeletedIsNoNotes(t *testing.T) {
	s := twoPlayers()
	s.Notes = []engine.Note{{Subject: "encounter", Text: "The bridge collapses."}}
	g := newGame(t, s)
	g.do(gm, engine.KindStart, "", nil)
	g.do(gm, engine.KindSetNote, "", map[string]any{"subject": "encounter", "text": ""})
	if notes := g.st.Core().Stage.Notes; notes != nil {
		t.Fatalf("notes left: %#v", notes)
	}
	copied, err := engine.Copy(g.st)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := snap(t, copied), snap(t, g.st); a != b {
		t.Fatalf("a copy differs from the state:\n%s\n%s", a, b)
	}
	g.replayMatches()
}
