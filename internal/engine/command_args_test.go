package engine

import (
	"encoding/json"
	"testing"
)

// NewCommand encodes plain arguments by hand: byte for byte what
// json.Marshal makes of them, and anything else through json.Marshal.
func TestNewCommandArgsAreMarshalled(t *testing.T) {
	for _, args := range []map[string]any{
		{"target": "goblin-1", "weapon": "bow", "called": false},
		{"quick": true, "weapon": "w2", "b": -3, "a": 0, "zone": 12},
		{"z": "", "": "x"},
		{"text": "a <b> & \"c\" \\ d"},
		{"name": "Élodie"},
		{"tab": "a\tb"},
		{"f": 1.5, "s": "x"},
		{"list": []string{"a", "b"}},
		{"n": nil},
		{"<key>": 1},
	} {
		want, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		if got := NewCommand("x", "", args).Args; string(got) != string(want) {
			t.Errorf("args %v: %s, json.Marshal %s", args, got, want)
		}
	}
}
