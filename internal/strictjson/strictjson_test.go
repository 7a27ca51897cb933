package strictjson

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/patience"
)

type doc struct {
	Kind string          `json:"kind"`
	Args json.RawMessage `json:"args,omitempty"`
}

func TestDecodeOneValueOnly(t *testing.T) {
	for _, tc := range []struct {
		in   string
		code string
	}{
		{`{"kind":"a"}`, ""},
		{" \n\t{\"kind\":\"a\"}\r\n ", ""},
		{`{"kind":"a"}}`, fray.EINVALID}, // the stray brace
		{`{"kind":"a"}]`, fray.EINVALID},
		{`{"kind":"a"}{}`, fray.EINVALID},
		{`{"kind":"a"} x`, fray.EINVALID},
		{`{"kind":"a"}` + "\v", fray.EINVALID}, // not JSON white space
		{`{"kind":"a","extra":1}`, fray.EINVALID},
		{``, fray.EINVALID},
		{`   `, fray.EINVALID},
		{"{\"kind\":\"\xff\"}", fray.EINVALID},
		{`{"kind":"a","args":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, fray.EINVALID},
		{`{"kind":"` + strings.Repeat("[", 40) + `"}`, ""}, // brackets in a string do not nest
		{`{"kind":"\"[[[["}`, ""},
		{`{"kind":"a\u0000"}`, fray.EINVALID},
		{`{"kind":"a\\u0000"}`, ""}, // an escaped backslash, then text
		{`{"kind":"a\u0001"}`, ""},
	} {
		var d doc
		err := Decode([]byte(tc.in), &d)
		if got := fray.ErrorCode(err); got != tc.code {
			t.Errorf("Decode(%q) = %v, want code %q", tc.in, err, tc.code)
		}
	}
}

func TestDecodeLimits(t *testing.T) {
	var d doc
	if err := DecodeWith([]byte(`{"kind":"abc"}`), &d, Limits{MaxBytes: 5}); fray.ErrorCode(err) != fray.ETOOLARGE {
		t.Errorf("over MaxBytes: %v", err)
	}
	deep := `{"kind":"a","args":` + strings.Repeat("[", 4) + strings.Repeat("]", 4) + `}`
	if err := DecodeWith([]byte(deep), &d, Limits{MaxDepth: 4}); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("5 levels, max 4: %v", err)
	}
	if err := DecodeWith([]byte(deep), &d, Limits{MaxDepth: 5}); err != nil {
		t.Errorf("5 levels, max 5: %v", err)
	}
	if err := DecodeWith([]byte(`{"kind":"a","x":1}`), &d, Limits{AllowUnknown: true}); err != nil {
		t.Errorf("AllowUnknown: %v", err)
	}
}

// FuzzDecode: whatever the bytes, Decode answers a fray error or nil, never
// panics, and what it accepts is one value that encoding/json reads the same.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"kind":"a"}`, `{"Kind":"a"}`, `{"k\u0049nd":"a"}`, `{"kind":"a"}}`, `{"kind":"a","args":[1,{"b":[]}]}`, `[`, `"\u0000"`, "{\"kind\":\"\\\"\"}", strings.Repeat("[", 33)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d doc
		err := Decode(data, &d)
		if err == nil {
			var again doc
			if json.Unmarshal(data, &again) != nil {
				t.Fatalf("accepted %q, which encoding/json refuses", data)
			}
			// Every member is spelt as the target spells it.
			var members map[string]json.RawMessage
			if json.Unmarshal(data, &members) == nil {
				for k := range members {
					if k != "kind" && k != "args" {
						t.Fatalf("accepted %q, with a member %q", data, k)
					}
				}
			}
			return
		}
		if code := fray.ErrorCode(err); code != fray.EINVALID && code != fray.ETOOLARGE {
			t.Fatalf("Decode(%q): code %q", data, code)
		}
	})
}

// What PlainFields accepts is one JSON object that Check lets through, and
// its fields are the object's members as encoding/json reads them.
func FuzzPlainFields(f *testing.F) {
	for _, s := range []string{`{"type":"command","id":"c","command":{"kind":"x","actor":"a"}}`, `{}`, ` {"a" : "b" } `, `{"a":{"b":{"c":"d"}}}`, `{"a":"b",}`, `{"a":"\u00e9"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fields, ok := PlainFields(data, nil)
		if !ok {
			return
		}
		var members map[string]json.RawMessage
		if err := Check(data, 0); err != nil || json.Unmarshal(data, &members) != nil {
			t.Fatalf("%q accepted: not one object Check and encoding/json accept", data)
		}
		for _, f := range fields {
			raw := members[string(f.Key)]
			var s string
			switch {
			case f.Object && string(raw) != string(f.Value):
				t.Fatalf("%q: member %q is %s, PlainFields read %s", data, f.Key, raw, f.Value)
			case !f.Object && (json.Unmarshal(raw, &s) != nil || s != string(f.Value)) && len(fields) == len(members):
				t.Fatalf("%q: member %q is %s, PlainFields read %q", data, f.Key, raw, f.Value)
			}
		}
	})
}

func TestPlainFields(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int // fields read; -1: not plain
	}{
		{`{"type":"command","id":"c","command":{"kind":"x","actor":"a"}}`, 3},
		{` { } `, 0},
		{`{"a":"b",}`, -1},
		{`{"a":"b"} x`, -1},
		{`{"a":{"b":{"c":"d"}}}`, -1},
		{`{"a":["b"]}`, -1},
		{`{"a":"\n"}`, -1},
		{`{"a":"é"}`, -1},
		{`{"a":1}`, -1},
		{`{"a" "b"}`, -1},
		{`{"a":"b"`, -1},
	} {
		fields, ok := PlainFields([]byte(tc.in), nil)
		if got := len(fields); !ok {
			got = -1
		} else if got != tc.want {
			t.Errorf("%s: %d fields, want %d", tc.in, got, tc.want)
		}
		if ok != (tc.want >= 0) {
			t.Errorf("%s: plain %v", tc.in, ok)
		}
	}
}

type note struct {
	Text string `json:"text"`
}

type embedded struct {
	Shared string `json:"shared"`
}

type setupDoc struct {
	embedded
	Name   string                     `json:"name"`
	Notes  []note                     `json:"notes"`
	ByID   map[string]note            `json:"byId"`
	Stats  json.RawMessage            `json:"stats"`
	Extra  map[string]json.RawMessage `json:"extra"`
	Plain  string
	Any    any `json:"any"`
	hidden string
}

// TestExactFieldNames: a member named in another case than the target's
// field is refused wherever it is, with a message naming it, where it is
// and the spelling meant — also when unknown fields are allowed; what a
// value decodes itself (json.RawMessage) or an interface holds is not
// looked into.
func TestExactFieldNames(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "": accepted
	}{
		{`{"name":"a","notes":[{"text":"x"}],"byId":{"A":{"text":"y"}},"shared":"s","Plain":"p"}`, ""},
		{`{"Name":"a"}`, `unknown field "Name" (field names are case-sensitive: did you mean "name"?)`},
		{`{"name":"a","notes":[{"text":"x"},{"Text":"y"}]}`, `unknown field "Text" in notes[1] (field names are case-sensitive: did you mean "text"?)`},
		{`{"byId":{"a":{"TEXT":"y"}}}`, `unknown field "TEXT" in byId.a (field names are case-sensitive: did you mean "text"?)`},
		{`{"SHARED":"s"}`, `did you mean "shared"?`},
		{`{"plain":"p"}`, `unknown field "plain" (field names are case-sensitive: did you mean "Plain"?)`},
		{`{"T\u0065xt":"x"}`, `unknown field "Text"`}, // at the top, setupDoc has no text
		{`{"notes":[{"T\u0065xt":"x"}]}`, `unknown field "Text" in notes[0] (field names are case-sensitive: did you mean "text"?)`},
		{`{"nam\u0065":"a"}`, ""},
		{`{"nope":1}`, `unknown field "nope"`},
		{`{"hidden":"x"}`, `unknown field "hidden"`},
		{`{"stats":{"Hp":3},"extra":{"X":{"Y":1}},"any":{"Whatever":1}}`, ""},
		{`{"name":"a","notes":[{"text":"x"}`, "malformed JSON"}, // a syntax error is the decoder's to tell
	} {
		var d setupDoc
		err := Decode([]byte(tc.in), &d)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.want != "" && (fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(fray.ErrorMessage(err), tc.want)):
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		}
	}
	// With unknown fields allowed, an unknown name passes, a wrong case
	// does not.
	var d setupDoc
	if err := DecodeWith([]byte(`{"other":1,"name":"a"}`), &d, Limits{AllowUnknown: true}); err != nil || d.Name != "a" {
		t.Errorf("AllowUnknown: %v %+v", err, d)
	}
	if err := DecodeWith([]byte(`{"Name":"a"}`), &d, Limits{AllowUnknown: true}); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("AllowUnknown, wrong case: %v", err)
	}
	// Unmarshal reads a fragment the same way, its error plain text.
	var n note
	if err := Unmarshal([]byte(`{"Text":"x"}`), &n); err == nil || fray.ErrorCode(err) != fray.EINTERNAL ||
		err.Error() != `unknown field "Text" (field names are case-sensitive: did you mean "text"?)` {
		t.Errorf("Unmarshal: %v", err)
	}
	if err := Unmarshal([]byte(`{"text":"x","more":1}`), &n); err == nil || err.Error() != `unknown field "more"` {
		t.Errorf("Unmarshal unknown: %v", err)
	}
	if err := Unmarshal([]byte(`{"text":"x"}`), &n); err != nil || n.Text != "x" {
		t.Errorf("Unmarshal: %v %+v", err, n)
	}
}

// Two embedded fields of one name at one depth cancel out, as
// encoding/json has it; the shallower wins over a deeper one. (The type is
// built at run time: vet refuses such a declaration, rightly.)
func TestFieldRules(t *testing.T) {
	type A struct {
		X string `json:"x"`
		Y string `json:"y"`
	}
	type B struct {
		X string `json:"x"`
	}
	c := reflect.StructOf([]reflect.StructField{
		{Name: "A", Type: reflect.TypeFor[A](), Anonymous: true},
		{Name: "B", Type: reflect.TypeFor[B](), Anonymous: true},
		{Name: "Y", Type: reflect.TypeFor[int](), Tag: `json:"y"`},
	})
	set := fieldsOf(c)
	if _, ok := set.byName["x"]; ok {
		t.Error("x is in A and B at the same depth: encoding/json drops it")
	}
	if ty := set.byName["y"]; ty != reflect.TypeFor[int]() {
		t.Errorf("y: %v", ty)
	}
	// encoding/json agrees: x is unknown, y the outer one.
	v := reflect.New(c).Interface()
	if err := json.Unmarshal([]byte(`{"y":3}`), v); err != nil || reflect.ValueOf(v).Elem().Field(2).Int() != 3 {
		t.Errorf("encoding/json: %v", err)
	}
	if err := Decode([]byte(`{"x":"a"}`), v); err == nil {
		t.Error("x, dropped by encoding/json, was accepted")
	}
}

// A user's file over GateBytes is decoded under intake's gate — refused
// busy while the gate is full — and a smaller one, or a part of a
// document, never waits.
func TestLargeFilesTakeTheGate(t *testing.T) {
	g := intake.Default.Config()
	release := make(chan struct{})
	var held sync.WaitGroup
	for i := range g.Slots + g.Queue {
		held.Add(1)
		go func() {
			defer held.Done()
			_ = intake.Run(context.Background(), intake.Job{Cost: 1}, func(context.Context) error { <-release; return nil })
		}()
		patience.Until(t, "the gate to take the held job", func() bool {
			running, waiting, _ := intake.Default.Stats()
			return running+waiting == i+1
		})
	}
	big := []byte(`{"kind":"` + strings.Repeat("x", GateBytes) + `"}`)
	var d doc
	err := DecodeWith(big, &d, Limits{File: "encounter file"})
	busy := fray.ErrorCode(err) == fray.EBUSY && strings.Contains(fray.ErrorMessage(err), "encounter file") && fray.RetryAfter(err) > 0
	small := DecodeWith([]byte(`{"kind":"a"}`), &d, Limits{File: "encounter file"})
	part := DecodeWith(big, &d, Limits{})
	close(release)
	held.Wait()
	if !busy {
		t.Errorf("a large file with the gate full: %v", err)
	}
	if small != nil || part != nil {
		t.Errorf("a small file: %v; a part: %v", small, part)
	}
	if err := DecodeWith(big, &d, Limits{File: "encounter file"}); err != nil || len(d.Kind) != GateBytes {
		t.Errorf("a large file with the gate free: %v", err)
	}
}
