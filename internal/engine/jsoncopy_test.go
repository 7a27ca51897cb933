package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// TestDecodeCopiesAsJSONDecodes: an event's data, decoded while the event
// is new, is copied rather than decoded, and the copy is what decoding
// gives (SetCheckDecode fails Decode otherwise): nil and empty slices and
// maps, omitempty and omitzero, raw JSON, numbers in interfaces, pointers,
// recursion. What a copy cannot mirror is decoded.
func TestDecodeCopiesAsJSONDecodes(t *testing.T) {
	engine.SetCheckDecode(true)
	defer engine.SetCheckDecode(false)
	type leaf struct {
		N    int      `json:"n"`
		Tags []string `json:"tags,omitempty"`
	}
	type data struct {
		Kept     []string          `json:"kept"`
		Nil      []string          `json:"nil"`
		Empty    []string          `json:"empty,omitempty"`
		Zero     leaf              `json:"zero,omitzero"`
		EmptyMap map[string]int    `json:"emptyMap,omitempty"`
		KeptMap  map[string]int    `json:"keptMap"`
		IntKeys  map[int]string    `json:"intKeys"`
		Map      map[string]*leaf  `json:"map"`
		Skipped  string            `json:"-"`
		hidden   int               // JSON drops it
		Raw      json.RawMessage   `json:"raw"`
		RawOmit  json.RawMessage   `json:"rawOmit,omitempty"`
		Spaced   json.RawMessage   `json:"spaced"`
		Any      any               `json:"any"`
		Values   map[string]any    `json:"values"`
		Bytes    []byte            `json:"bytes"`
		Arr      [2]leaf           `json:"arr"`
		F32      float32           `json:"f32"`
		Ptr      *leaf             `json:"ptr"`
		NilPtr   *leaf             `json:"nilPtr,omitempty"`
		Deeper   *data             `json:"deeper,omitempty"`
		Named    map[string][]leaf `json:"named"`
	}
	orig := data{
		Kept: []string{}, Empty: []string{}, EmptyMap: map[string]int{}, KeptMap: map[string]int{},
		IntKeys: map[int]string{-3: "a", 7: "b"}, Map: map[string]*leaf{"k": {N: 1, Tags: []string{"t"}}, "nil": nil},
		Skipped: "gone", hidden: 7, Spaced: json.RawMessage(`{ "a" : "<b>" }`),
		Any:    []any{1, int64(1) << 60, "s", true, nil, map[string]any{"x": []int{}}, []string(nil), 2.5},
		Values: map[string]any{"n": 3, "b": false, "s": "x", "nil": nil}, Bytes: []byte{},
		Arr: [2]leaf{{N: 1, Tags: []string{"u"}}, {N: 2, Tags: []string{}}}, F32: 0.1, Ptr: &leaf{},
		Deeper: &data{Kept: []string{"deep"}}, Named: map[string][]leaf{"e": {}, "n": nil},
	}
	ev := engine.NewEvent("k", "", "", orig)
	orig.Kept = append(orig.Kept, "changed after") // the event keeps its own copy
	orig.Map["k"].Tags[0] = "changed after"
	var got data
	if err := ev.Decode(&got); err != nil {
		t.Fatal(err)
	}
	var want data
	if err := json.Unmarshal(ev.Data, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("copied %#v\ndecoded %#v", got, want)
	}
	if string(got.Raw) != "null" || got.Empty != nil || got.Kept == nil || got.Bytes == nil || got.Values["n"] != 3.0 {
		t.Errorf("copied %#v", got)
	}
	got.Map["k"].Tags[0], got.Deeper.Kept[0] = "z", "z"
	var again data
	if err := ev.Decode(&again); err != nil {
		t.Fatal(err)
	}
	if again.Map["k"].Tags[0] != "t" || again.Deeper.Kept[0] != "deep" {
		t.Error("two decodings share memory")
	}
	if n := engine.DecodeCounts()["k"]; n != [2]int{2, 0} {
		t.Errorf("copied and decoded: %v, want two copies", n)
	}

	// Embedded structs' fields are promoted: copied.
	type Inner struct {
		Tags []string `json:"tags,omitempty"`
		M    map[string]int
	}
	type outer struct {
		Inner
		N int `json:"n"`
	}
	engine.SetCheckDecode(true)
	var o outer
	if err := engine.NewEvent("k", "", "", outer{Inner{Tags: []string{}, M: map[string]int{}}, 1}).Decode(&o); err != nil {
		t.Fatal(err)
	}
	if n := engine.DecodeCounts()["k"]; n != [2]int{1, 0} || o.Tags != nil || o.M == nil || o.N != 1 {
		t.Errorf("copied and decoded %v: %#v", n, o)
	}

	// A flat value (no references) is its own copy.
	type flat struct {
		S string  `json:"s,omitempty"`
		F float64 `json:"f"`
		A [2]int  `json:"a"`
	}
	engine.SetCheckDecode(true)
	var fl flat
	if err := engine.NewEvent("k", "", "", &flat{"s", 0.5, [2]int{1, 2}}).Decode(&fl); err != nil {
		t.Fatal(err)
	}
	if n := engine.DecodeCounts()["k"]; n != [2]int{1, 0} || fl != (flat{"s", 0.5, [2]int{1, 2}}) {
		t.Errorf("copied and decoded %v: %#v", n, fl)
	}

	// What a copy does not mirror is decoded, and so are data of another
	// type than the event's, and a target that is not zero.
	type embedded struct{ leaf }
	for _, d := range []any{
		leaf{Tags: []string{"bad \xff utf-8"}},
		struct{ S string }{S: "bad \xff utf-8"},
		struct{ A any }{A: float32(0.1)},
		struct{ A any }{A: leaf{}},
		struct {
			N int `json:"n,string"`
		}{N: 1},
		embedded{leaf{N: 1}},
		struct {
			Inner
			M int
		}{},
	} {
		engine.SetCheckDecode(true)
		ev := engine.NewEvent("k", "", "", d)
		target := reflect.New(reflect.TypeOf(d))
		if err := ev.Decode(target.Interface()); err != nil {
			t.Fatal(err)
		}
		if n := engine.DecodeCounts()["k"]; n != [2]int{0, 1} {
			t.Errorf("%#v: copied and decoded %v, want decoded", d, n)
		}
	}
	engine.SetCheckDecode(true)
	ev = engine.NewEvent("k", "", "", leaf{N: 1})
	other := struct {
		N int `json:"n"`
	}{}
	notZero := leaf{Tags: []string{"kept"}}
	if err := ev.Decode(&other); err != nil || other.N != 1 {
		t.Fatal(err, other)
	}
	if err := ev.Decode(&notZero); err != nil || notZero.N != 1 || notZero.Tags[0] != "kept" {
		t.Fatal(err, notZero)
	}
	if n := engine.DecodeCounts()["k"]; n != [2]int{0, 2} {
		t.Errorf("copied and decoded %v, want decoded twice", n)
	}
}
