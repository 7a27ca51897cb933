package web

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// TestKeysTellEveryFieldApart holds the hand-written keys (keys.go) to
// their promise: no two inputs that differ share a key. For each type a key
// is written for, it makes random values, changes one field at a time (down
// to the fields of nested structs, list elements and pointers) and fails
// when the key stays the same — as it does for a field the appender leaves
// out, or writes so that two values read alike.
func TestKeysTellEveryFieldApart(t *testing.T) {
	cases := []struct {
		name string
		typ  reflect.Type
		key  func(v reflect.Value) []byte
		// skip are fields the key leaves out on purpose (the view's fields
		// the shell does not read; a part's token, keyed apart).
		skip map[string]bool
	}{
		{"token", reflect.TypeFor[board.Token](), func(v reflect.Value) []byte {
			t := v.Interface().(board.Token)
			return keyBuf(nil).token(&t)
		}, nil},
		{"board", reflect.TypeFor[board.Board](), func(v reflect.Value) []byte {
			b := v.Interface().(board.Board)
			k, err := keyBuf(nil).board(&b)
			if err != nil {
				t.Fatal(err)
			}
			return k
		}, nil},
		{"shell", reflect.TypeFor[shellFields](), func(v reflect.Value) []byte {
			k, err := keyBuf(nil).shell(v.Interface().(shellFields).view())
			if err != nil {
				t.Fatal(err)
			}
			return k
		}, nil},
		{"face", reflect.TypeFor[face](), func(v reflect.Value) []byte { return keyBuf(nil).face(v.Interface().(face)) }, map[string]bool{"T": true}},
		{"rosterRow", reflect.TypeFor[rosterRow](), func(v reflect.Value) []byte { return keyBuf(nil).rosterRow(v.Interface().(rosterRow)) }, map[string]bool{"T": true}},
		{"action", reflect.TypeFor[actionIn](), func(v reflect.Value) []byte { return keyBuf(nil).action(v.Interface().(actionIn)) }, nil},
		{"actionGroup", reflect.TypeFor[groupIn](), func(v reflect.Value) []byte { return keyBuf(nil).actionGroup(v.Interface().(groupIn)) }, nil},
		{"orderEntry", reflect.TypeFor[orderEntry](), func(v reflect.Value) []byte { return keyBuf(nil).orderEntry(v.Interface().(orderEntry)) }, nil},
		{"actionList", reflect.TypeFor[actionsIn](), func(v reflect.Value) []byte { return keyBuf(nil).actionList(v.Interface().(actionsIn)) }, nil},
		{"common", reflect.TypeFor[commonFields](), func(v reflect.Value) []byte {
			f := v.Interface().(commonFields)
			return keyBuf(nil).common(engine.View{ID: f.ID, Sides: f.Sides, Combatants: f.Combatants})
		}, nil},
		{"log", reflect.TypeFor[logIn](), func(v reflect.Value) []byte {
			k, err := v.Interface().(logIn).appendKey(nil)
			if err != nil {
				t.Fatal(err)
			}
			return k
		}, nil},
		{"cards", reflect.TypeFor[cardsIn](), func(v reflect.Value) []byte {
			k, err := v.Interface().(cardsIn).appendKey(nil)
			if err != nil {
				t.Fatal(err)
			}
			return k
		}, nil},
		{"status", reflect.TypeFor[statusFields](), func(v reflect.Value) []byte {
			return keyBuf(nil).status(v.Interface().(statusFields).view())
		}, nil},
		{"stats", reflect.TypeFor[statsOf](), func(v reflect.Value) []byte { return keyBuf(nil).stats(v.Interface().(statsOf)) }, nil},
		{"legend", reflect.TypeFor[legend](), func(v reflect.Value) []byte { return keyBuf(nil).legend(v.Interface().(legend)) }, nil},
	}
	rng := rand.New(rand.NewSource(1))
	checked := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for range 20 {
				v := reflect.New(c.typ).Elem() // settable
				fillRandom(v, rng, 0)
				checkFields(t, rng, c.name, v, v, c.key, c.skip, 0)
				checked++
			}
		})
	}
	if checked == 0 || changes < 1000 {
		t.Fatalf("%d values, %d changes checked", checked, changes)
	}
	// A token's sheet: its id, name and sheet.
	t.Run("sheet", func(t *testing.T) {
		for range 20 {
			var tok board.Token
			fillRandom(reflect.ValueOf(&tok).Elem(), rng, 0)
			base := keyBuf(nil).tokenSheet(&tok)
			for _, change := range []func(*board.Token){
				func(t *board.Token) { t.ID += "x" },
				func(t *board.Token) { t.Name += "x" },
				func(t *board.Token) { t.Sheet = append(t.Sheet, board.Section{}) },
				func(t *board.Token) { t.Sheet[0].Title += "x" },
				func(t *board.Token) { t.Sheet[0].Stats = append(t.Sheet[0].Stats, board.Stat{}) },
			} {
				other := tok
				other.Sheet = append([]board.Section(nil), tok.Sheet...)
				other.Sheet[0].Stats = append([]board.Stat(nil), tok.Sheet[0].Stats...)
				change(&other)
				if bytes.Equal(base, keyBuf(nil).tokenSheet(&other)) {
					t.Fatalf("two tokens' sheets share a key: %+v and %+v", tok, other)
				}
			}
		}
	})
}

// commonFields are the fields of engine.View every section's key writes by
// hand (keyBuf.common).
type commonFields struct {
	ID         string
	Sides      []engine.Side
	Combatants []engine.Combatant
}

// statusFields are the fields of engine.View the status strip's input
// holds (sectionInput's "status") but the common ones: of the viewer,
// whether it is the GM and whom it controls; of the board, its facts.
type statusFields struct {
	Status          engine.Status
	Round           int
	Phase, Current  string
	Acting, Waiting []string
	Outcome         *engine.Outcome
	Attention       *engine.Attention
	GM              bool
	Controls        []string
	Facts           []board.Stat
}

func (f statusFields) view() engine.View {
	v := engine.View{Status: f.Status, Round: f.Round, Phase: f.Phase, Current: f.Current, Acting: f.Acting, Waiting: f.Waiting,
		Outcome: f.Outcome, Attention: f.Attention, Viewer: engine.Viewer{GM: f.GM, Controls: f.Controls}}
	if f.Facts != nil {
		v.Board = &board.Board{Facts: f.Facts}
	}
	return v
}

// TestStatusInputKeepsStatusFields checks that the status strip's input
// (sectionInput's "status") holds no field of the view its key
// (keyBuf.status, keyBuf.common) leaves out: from a view with every field
// set, it keeps only those, and of the viewer only GM and Controls, of the
// board only Facts.
func TestStatusInputKeepsStatusFields(t *testing.T) {
	written := map[string]bool{"ID": true, "Sides": true, "Combatants": true, "Viewer": true, "Board": true}
	for f := range reflect.TypeFor[statusFields]().Fields() {
		written[f.Name] = true
	}
	v := everyField()
	v.Viewer = engine.Viewer{Controls: []string{"c"}, Name: "n", Players: map[string]string{"c": "p"}}
	v.Current = "c"
	v.Board = &board.Board{Facts: []board.Stat{{Label: "x"}}, Tokens: []board.Token{{ID: "c"}}}
	got := sectionInput("status", v)
	gv := reflect.ValueOf(got)
	for i := range gv.NumField() {
		name := gv.Type().Field(i).Name
		if !gv.Field(i).IsZero() && !written[name] {
			t.Errorf("the status strip's input keeps %s, which its key does not write", name)
		}
	}
	if !reflect.DeepEqual(got.Viewer, engine.Viewer{GM: got.Viewer.GM, Controls: got.Viewer.Controls}) {
		t.Errorf("the status strip's input keeps more of the viewer than its key writes: %+v", got.Viewer)
	}
	if got.Board != nil && !reflect.DeepEqual(*got.Board, board.Board{Facts: got.Board.Facts}) {
		t.Errorf("the status strip's input keeps more of the board than its facts: %+v", *got.Board)
	}
}

// shellFields are the fields of engine.View the battlefield's shell reads
// (shellInput keeps: TestShellInputKeepsShellFields).
type shellFields struct {
	ID         string
	Sides      []engine.Side
	Combatants []engine.Combatant
	Acting     []string
	Board      *board.Board
	Scene      string
	SceneFit   *engine.SceneFit
}

func (f shellFields) view() engine.View {
	return engine.View{ID: f.ID, Sides: f.Sides, Combatants: f.Combatants, Acting: f.Acting, Board: f.Board, Scene: f.Scene, SceneFit: f.SceneFit}
}

// TestShellInputKeepsShellFields checks that the battlefield's shell reads
// of a view no field its key (keyBuf.shell) leaves out: shellInput keeps
// the fields of shellFields, and no other.
func TestShellInputKeepsShellFields(t *testing.T) {
	read := map[string]bool{}
	for f := range reflect.TypeFor[shellFields]().Fields() {
		read[f.Name] = true
	}
	v := everyField()
	got := reflect.ValueOf(shellInput(v))
	for i := range got.NumField() {
		name := got.Type().Field(i).Name
		if zero := got.Field(i).IsZero(); zero == read[name] {
			t.Errorf("shellInput keeps %s: %v, its key writes it: %v", name, !zero, read[name])
		}
	}
}

// everyField is a view with every field set to a value that is not the
// zero value.
func everyField() engine.View {
	var v engine.View
	all := reflect.ValueOf(&v).Elem()
	for i := range all.NumField() {
		// Any value that is not the zero value.
		switch f := all.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64, reflect.Int32:
			f.SetInt(1)
		case reflect.Slice, reflect.Map, reflect.Pointer:
			f.Set(reflect.New(f.Type()).Elem())
			if f.Kind() == reflect.Pointer {
				f.Set(reflect.New(f.Type().Elem()))
			} else if f.Kind() == reflect.Slice {
				f.Set(reflect.MakeSlice(f.Type(), 1, 1))
			} else {
				f.Set(reflect.MakeMap(f.Type()))
			}
		case reflect.Struct:
			f.Set(reflect.New(f.Type()).Elem())
			if f.NumField() > 0 {
				if g := f.Field(0); g.CanSet() && g.Kind() == reflect.Bool {
					g.SetBool(true)
				}
			}
		}
	}
	return v
}

// checkFields changes each field under at (a part of root) in turn and
// checks root's key changes with it; it recurses into structs, pointers and
// list elements.
var changes int // how many changes checkFields made: the test checks something

func checkFields(t *testing.T, rng *rand.Rand, path string, root, at reflect.Value, key func(reflect.Value) []byte, skip map[string]bool, depth int) {
	t.Helper()
	if depth > 10 {
		return
	}
	switch at.Kind() {
	case reflect.Struct:
		for i := range at.NumField() {
			f := at.Type().Field(i)
			if depth == 0 && skip[f.Name] || !f.IsExported() {
				continue
			}
			checkFields(t, rng, path+"."+f.Name, root, at.Field(i), key, skip, depth+1)
		}
		return
	case reflect.Pointer:
		if !at.IsNil() {
			checkFields(t, rng, path, root, at.Elem(), key, skip, depth+1)
		}
	case reflect.Slice:
		for i := range min(at.Len(), 2) {
			checkFields(t, rng, path+"[]", root, at.Index(i), key, skip, depth+1)
		}
	}
	if !at.CanSet() {
		return
	}
	before := key(root)
	was := reflect.New(at.Type()).Elem()
	was.Set(at)
	defer at.Set(was)
	for range 10 {
		nv := reflect.New(at.Type()).Elem()
		fillRandom(nv, rng, depth)
		if reflect.DeepEqual(nv.Interface(), was.Interface()) || equalForKey(nv, was) {
			continue
		}
		at.Set(nv)
		changes++
		if bytes.Equal(key(root), before) {
			t.Fatalf("%s: changing it from %#v to %#v leaves the key as it was", path, was.Interface(), nv.Interface())
		}
		return
	}
}

// fillRandom sets v to a random value: every pointer set, every list of one or
// two elements (until a depth), every string, number and flag random.
func fillRandom(v reflect.Value, rng *rand.Rand, depth int) {
	switch v.Kind() {
	case reflect.String:
		// Valid UTF-8, as every string of a view is (it reached the
		// engine as JSON; the grid's, pairs' and ladder's keys are JSON).
		letters := []rune("ab<\x00é\"")
		b := make([]rune, rng.Intn(4))
		for i := range b {
			b[i] = letters[rng.Intn(len(letters))]
		}
		v.SetString(string(b))
	case reflect.Bool:
		v.SetBool(rng.Intn(2) == 0)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(rng.Intn(7) - 3))
	case reflect.Float64:
		v.SetFloat(float64(rng.Intn(7)) / 2)
	case reflect.Pointer:
		if depth > 8 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fillRandom(p.Elem(), rng, depth+1)
		v.Set(p)
	case reflect.Slice:
		if depth > 8 {
			return
		}
		n := 1 + rng.Intn(2)
		sl := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fillRandom(sl.Index(i), rng, depth+1)
		}
		v.Set(sl)
	case reflect.Map:
		if depth > 8 {
			return
		}
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillRandom(k, rng, depth+1)
		fillRandom(e, rng, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillRandom(v.Field(i), rng, depth+1)
			}
		}
	}
}

// equalForKey reports values a key may not tell apart because they render
// alike: a nil list and an empty one.
func equalForKey(a, b reflect.Value) bool {
	return a.Kind() == reflect.Slice && a.Len() == 0 && b.Len() == 0
}
