package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// TestCopyFollowsJSON: what JSON leaves out or normalises, Copy does too,
// and nothing is shared.
func TestCopyFollowsJSON(t *testing.T) {
	type inner struct {
		N    int
		Tags []string `json:"tags,omitempty"`
	}
	type st struct {
		engine.Base
		Kept      []string          `json:"kept"`
		Empty     []string          `json:"empty,omitempty"`
		EmptyMap  map[string]int    `json:"emptyMap,omitempty"`
		Map       map[string]*inner `json:"map"`
		Skipped   string            `json:"-"`
		hidden    int
		Raw       json.RawMessage `json:"raw"`
		RawOmit   json.RawMessage `json:"rawOmit,omitempty"`
		Spaced    json.RawMessage `json:"spaced"`
		Any       any             `json:"any"`
		Arr       [2]inner        `json:"arr"`
		Recursive *st             `json:"recursive,omitempty"`
	}
	orig := &st{
		Base:     engine.Base{Order: []string{"a", "b"}, Options: map[string]string{"x": "y"}},
		Kept:     []string{},
		Empty:    []string{},
		EmptyMap: map[string]int{},
		Map:      map[string]*inner{"k": {N: 1, Tags: []string{"t"}}},
		Skipped:  "gone",
		hidden:   7,
		Spaced:   json.RawMessage(`{ "a" : [1, 2] }`),
		Any:      inner{N: 3},
		Arr:      [2]inner{{N: 1, Tags: []string{"u"}}, {N: 2}},
	}
	orig.Recursive = &st{Kept: []string{"deep"}}
	got, err := engine.Copy(orig)
	if err != nil {
		t.Fatal(err)
	}
	c := got.(*st)
	switch {
	case c.Kept == nil || len(c.Kept) != 0:
		t.Errorf("an empty slice without omitempty must stay empty, not nil: %#v", c.Kept)
	case c.Empty != nil || c.EmptyMap != nil:
		t.Errorf("an empty omitempty slice or map must become nil: %#v %#v", c.Empty, c.EmptyMap)
	case c.Skipped != "" || c.hidden != 0:
		t.Errorf("fields JSON drops must be zero: %q %d", c.Skipped, c.hidden)
	case string(c.Raw) != "null" || c.RawOmit != nil:
		t.Errorf("a nil RawMessage becomes null unless omitempty: %q %q", c.Raw, c.RawOmit)
	case string(c.Spaced) != `{"a":[1,2]}`:
		t.Errorf("raw JSON is compacted: %s", c.Spaced)
	case !reflect.DeepEqual(c.Any, map[string]any{"N": 3.0}):
		t.Errorf("an interface holds what JSON decodes: %#v", c.Any)
	case c.Recursive == nil || c.Recursive.Kept[0] != "deep":
		t.Errorf("recursive value not copied: %#v", c.Recursive)
	}
	c.Order[0], c.Options["x"], c.Map["k"].N, c.Map["k"].Tags[0], c.Arr[0].Tags[0], c.Recursive.Kept[0] = "z", "z", 9, "z", "z", "z"
	if orig.Order[0] != "a" || orig.Options["x"] != "y" || orig.Map["k"].N != 1 || orig.Map["k"].Tags[0] != "t" ||
		orig.Arr[0].Tags[0] != "u" || orig.Recursive.Kept[0] != "deep" {
		t.Errorf("the copy shares memory with the original: %+v", orig)
	}
}

// TestCopySharesMemos: a memo of a struct reached through a pointer, a
// slice or the state itself is shared by Copy, even when nothing was kept
// in it before the copy, so what a copy keeps every other copy reads;
// CopyAsDecoded leaves them all empty, as a decoded snapshot has them.
func TestCopySharesMemos(t *testing.T) {
	type sheet struct{ text string }
	type fighter struct {
		Name  string `json:"name"`
		shown engine.Memo[sheet]
	}
	type st struct {
		engine.Base
		Fighters map[string]*fighter `json:"fighters"`
		Line     []fighter           `json:"line"`
		whole    engine.Memo[sheet]
	}
	orig := &st{Fighters: map[string]*fighter{"a": {Name: "Ana"}}, Line: []fighter{{Name: "Bo"}}}
	orig.Fighters["a"].shown.Keep(&sheet{"kept before"})
	memos := func(s *st) []*engine.Memo[sheet] {
		return []*engine.Memo[sheet]{&s.Fighters["a"].shown, &s.Line[0].shown, &s.whole}
	}
	first, err := engine.Copy(orig)
	if err != nil {
		t.Fatal(err)
	}
	second, err := engine.Copy(first)
	if err != nil {
		t.Fatal(err)
	}
	if got := first.(*st).Fighters["a"].shown.Load(); got == nil || got.text != "kept before" {
		t.Fatalf("a copy must read what the original kept: %v", got)
	}
	for i, m := range memos(second.(*st)) {
		if i > 0 {
			m.Keep(&sheet{"kept by the second copy"})
		}
	}
	for _, s := range []*st{orig, first.(*st), second.(*st)} {
		for i, m := range memos(s) {
			want := "kept by the second copy"
			if i == 0 {
				want = "kept before"
			}
			if got := m.Load(); got == nil || got.text != want {
				t.Errorf("memo %d: %v, want %q: copies share their memos", i, got, want)
			}
		}
	}
	if m := memos(second.(*st))[0]; m.Keep(&sheet{"another"}).text != "kept before" {
		t.Error("Keep must return the value kept first")
	}
	alone, err := engine.CopyAsDecoded(second)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range memos(alone.(*st)) {
		if got := m.Load(); got != nil {
			t.Errorf("memo %d of CopyAsDecoded: %v, want none", i, got)
		}
	}
	snap, _ := engine.Snapshot(second)
	var decoded st
	if err := json.Unmarshal(snap, &decoded); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(alone, &decoded) {
		t.Errorf("CopyAsDecoded must be the decoded snapshot:\n%+v\n%+v", alone, &decoded)
	}
}
