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
