package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
)

// veilBoardByJSON is how veilView judged a board before veilBoard: the
// whole board encoded and searched, scrubbed when it names someone unseen.
func (vl *veil) veilBoardByJSON(bd *board.Board) *board.Board {
	raw, err := json.Marshal(bd)
	if err != nil || !vl.namesJSON(raw) {
		return bd
	}
	var clean *board.Board
	if scrubbed := vl.scrubJSON(raw); scrubbed != nil && json.Unmarshal(scrubbed, &clean) == nil {
		return clean
	}
	return nil
}

// spyVeil is a player's veil at a table where the spy ("spy", "Grey
// Spy") is hidden and the hero ("hero", "Hero") is not.
func spyVeil() *veil {
	b := &Base{Combatants: []Combatant{{ID: "hero", Name: "Hero"}, {ID: "spy", Name: "Grey Spy", Hidden: true}}}
	return newVeil(b, PlayerViewer("hero"), []string{"spy"})
}

// fullBoard returns a board with every pointer set, one element in every
// slice and one entry in every map, every string "plain words" (every map
// key "plain-key"), and setters for each string of it, by path.
func fullBoard() (*board.Board, map[string]func(string)) {
	bd := &board.Board{}
	setters := map[string]func(string){}
	var fill func(v reflect.Value, path string)
	fill = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.String:
			v.SetString("plain words")
			setters[path] = v.SetString
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), path)
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
			fill(v.Index(0), path+"[0]")
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					fill(v.Field(i), path+"."+v.Type().Field(i).Name)
				}
			}
		case reflect.Map:
			m := reflect.MakeMap(v.Type())
			v.Set(m)
			key := "plain-key"
			elem := reflect.New(v.Type().Elem()).Elem()
			fill(elem, path+"{value}")
			m.SetMapIndex(reflect.ValueOf(key), elem)
			setters[path+"{value}"] = func(s string) {
				e := reflect.New(v.Type().Elem()).Elem()
				e.SetString(s)
				m.SetMapIndex(reflect.ValueOf(key), e)
			}
			setters[path+"{key}"] = func(s string) {
				e := m.MapIndex(reflect.ValueOf(key))
				m.SetMapIndex(reflect.ValueOf(key), reflect.Value{})
				key = s
				m.SetMapIndex(reflect.ValueOf(key), e)
			}
		}
	}
	fill(reflect.ValueOf(bd).Elem(), "Board")
	return bd, setters
}

func boardJSON(t *testing.T, bd *board.Board) string {
	t.Helper()
	raw, err := json.Marshal(bd)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestVeilBoardFindsEveryString: the board's check for secrets without
// encoding it finds the hidden spy's id or name in every string a board
// can hold, map keys included, and the board a player then gets is the
// one the encoded search gave and names the spy nowhere; a board naming
// no one unseen is passed on as it is.
func TestVeilBoardFindsEveryString(t *testing.T) {
	vl := spyVeil()
	bd, _ := fullBoard()
	if names, ok := vl.boardNames(bd); !ok || names {
		t.Fatalf("a board naming no one: names %v, ok %v", names, ok)
	}
	if vl.veilBoard(bd) != bd {
		t.Fatal("a board naming no one is not passed on as it is")
	}
	_, setters := fullBoard()
	if len(setters) < 40 {
		t.Fatalf("only %d strings in a board", len(setters))
	}
	for path := range setters {
		// The last text names the spy after an escaped character, which the
		// encoded search missed ("\nGrey Spy" reads "nGrey" there).
		for i, text := range []string{"Grey Spy waits.", "spy", "tiebreak:spy", "Hero and \"Grey Spy\" <b>", "Hero\nGrey Spy"} {
			bd, setters := fullBoard()
			setters[path](text)
			names, ok := vl.boardNames(bd)
			if !ok || !names {
				t.Errorf("%s = %q: names %v, ok %v", path, text, names, ok)
				continue
			}
			got := vl.veilBoard(bd)
			if got != nil {
				if g := boardJSON(t, got); strings.Contains(g, "Grey Spy") || idToken(g, "spy") {
					t.Errorf("%s = %q: the player's board names the spy: %s", path, text, g)
				}
			}
			if i == 4 || strings.HasSuffix(path, "{key}") {
				continue // the encoded search let these through
			}
			if want := vl.veilBoardByJSON(bd); (got == nil) != (want == nil) || got != nil && boardJSON(t, got) != boardJSON(t, want) {
				t.Errorf("%s = %q: the board differs from the encoded search's: %v against %v", path, text, got, want)
			}
		}
	}
}

// TestVeilBoardFallsBackToJSON: a hidden combatant whose id or name could
// be read in the encoding's own bytes (a field name, a number) is searched
// for in the encoded board, as before.
func TestVeilBoardFallsBackToJSON(t *testing.T) {
	for _, hidden := range []Combatant{{ID: "label", Name: "Label"}, {ID: "12", Name: "Twelve"}, {ID: "x1", Name: "true"}} {
		hidden.Hidden = true
		b := &Base{Combatants: []Combatant{{ID: "hero", Name: "Hero"}, hidden}}
		vl := newVeil(b, PlayerViewer("hero"), []string{hidden.ID})
		bd, _ := fullBoard()
		if _, ok := vl.boardNames(bd); ok {
			t.Errorf("%+v: judged without encoding", hidden)
		}
		got, want := vl.veilBoard(bd), vl.veilBoardByJSON(bd)
		if (got == nil) != (want == nil) || got != nil && boardJSON(t, got) != boardJSON(t, want) {
			t.Errorf("%+v: %v against %v by JSON", hidden, got, want)
		}
	}
}

// TestVeilBoardKeyNamesTheSpy: a map entry keyed by the spy's id goes.
func TestVeilBoardKeyNamesTheSpy(t *testing.T) {
	vl := spyVeil()
	bd := &board.Board{Model: board.Pairs, Pairs: &board.PairMap{Engagements: []board.Engagement{
		{A: "hero", B: "orc", Shown: map[string]string{"hero": "Guard", "spy": "Strike"}}}}}
	got := vl.veilBoard(bd)
	if got == nil || bytes.Contains([]byte(boardJSON(t, got)), []byte("spy")) {
		t.Fatalf("the board keeps the spy's key: %v", got)
	}
	if fmt.Sprint(got.Pairs.Engagements[0].Shown) != "map[hero:Guard]" {
		t.Fatalf("shown %v", got.Pairs.Engagements[0].Shown)
	}
}
