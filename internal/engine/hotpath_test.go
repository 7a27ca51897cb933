package engine

import (
	"encoding/json"
	"reflect"
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

// A raw JSON value copied as it is, when it needs no compacting or
// escaping, is what json.Marshal makes of it; any other goes through
// json.Marshal.
func TestRawMessageCopiedAsMarshalled(t *testing.T) {
	for _, raw := range []string{
		`{"a":1,"b":[true,null,"x"]}`,
		`{"a": 1}`,
		"{\"a\":\n1}",
		`"<b>"`,
		`"<b"`,
		`"b>"`,
		`"a&b"`,
		"\"\u2028\"",
		`"é"`,
		`{"a":1`,
		`null`,
		``,
	} {
		want, wantErr := json.Marshal(json.RawMessage(raw))
		dst := reflect.New(reflect.TypeFor[json.RawMessage]()).Elem()
		ok := copyRawMessage(dst, reflect.ValueOf(json.RawMessage(raw)))
		if ok != (wantErr == nil) || ok && string(dst.Bytes()) != string(want) {
			t.Errorf("%q: copied %q (%v), json.Marshal %q (%v)", raw, dst.Bytes(), ok, want, wantErr)
		}
	}
}
