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

// ordinaryCommand is DecodeCommand without its fast path (plainCommand).
func ordinaryCommand(data []byte) (Command, error) {
	var c Command
	if err := json.Unmarshal(data, &c); err != nil {
		return Command{}, err
	}
	return c, nil
}

// plainCommand reads the commands a page and a bot send as UnmarshalJSON
// does, and leaves everything else to it.
func TestPlainCommandAsOrdinary(t *testing.T) {
	for _, tc := range []struct {
		in    string
		plain bool
	}{
		{`{"kind":"end-turn","actor":"ana"}`, true},
		{`{"kind":"end-turn","actor":"ana","entropy":"0123456789abcdef0123456789abcdef"}`, true},
		{` { "entropy" : "e" , "kind":"x" } `, true},
		{`{"kind":"end-turn"}`, true},
		{`{"kind":""}`, true},
		{`{}`, true},
		{`{"kind":"move","actor":"a","to":"z"}`, false},
		{`{"kind":"x","kind":"y"}`, false},
		{`{"kind":"a\"b"}`, false},
		{`{"kind":"Élodie"}`, false},
		{`{"kind":"x","actor":null}`, false},
		{`{"Kind":"x"}`, false},
		{`{"kind":"x",}`, false},
		{`{"kind":"x"}}`, false},
		{`{"kind":{"a":"b"}}`, false},
		{`{"kind" "x"}`, false},
		{`{"kind":"x"`, false},
	} {
		got, ok := plainCommand([]byte(tc.in))
		if ok != tc.plain {
			t.Errorf("%s: plain %v, want %v", tc.in, ok, tc.plain)
		}
		if !ok {
			continue
		}
		want, err := ordinaryCommand([]byte(tc.in))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: plain %+v, ordinary %+v (%v)", tc.in, got, want, err)
		}
	}
}

// FuzzPlainCommand: whatever plainCommand accepts, UnmarshalJSON reads as
// the same command.
func FuzzPlainCommand(f *testing.F) {
	for _, s := range []string{`{"kind":"end-turn","actor":"ana","entropy":"e1"}`, `{"kind":"x","kind":"y"}`, `{}`, `{"kind":"a","b":"c"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := plainCommand(data)
		if !ok {
			return
		}
		want, err := ordinaryCommand(data)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: plain %+v, ordinary %+v (%v)", data, got, want, err)
		}
	})
}
