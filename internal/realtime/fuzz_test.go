package realtime

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// FuzzDecodeClientMessage: whatever a client sends, the decoder answers a
// message and a command or a clear error (invalid or too_large), never
// panics, and what it accepts is exactly one JSON object whose command has
// a kind — a stray "}" or any other trailing byte is refused. Its seeds are
// TestDecodeClientMessage's cases.
func FuzzDecodeClientMessage(f *testing.F) {
	for _, tc := range decodeCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if m, cmd, ok := decodePlainMessage(data); ok {
			om, ocmd, err := decodeClientMessage(data)
			if err != nil || m.Type != om.Type || m.ID != om.ID || string(m.Command) != string(om.Command) || !reflect.DeepEqual(cmd, ocmd) {
				t.Fatalf("%q: plain %+v / %+v, ordinary %+v / %+v (%v)", data, m, cmd, om, ocmd, err)
			}
		}
		m, cmd, err := DecodeClientMessage(data)
		if err != nil {
			if code := fray.ErrorCode(err); code != fray.EINVALID && code != fray.ETOOLARGE {
				t.Fatalf("DecodeClientMessage(%q): code %q", data, code)
			}
			return
		}
		if m.Type != "command" || m.ID == "" || cmd.Kind == "" {
			t.Fatalf("accepted %q as %+v / %+v", data, m, cmd)
		}
		var one any
		if err := json.Unmarshal(data, &one); err != nil {
			t.Fatalf("accepted %q, which is not one JSON value: %v", data, err)
		}
	})
}

// decodeCases are client messages, each with the error code
// DecodeClientMessage answers ("" when it accepts it) and whether
// decodePlainMessage's one pass takes it.
var decodeCases = []struct {
	in    string
	code  string
	plain bool
}{
	{`{"type":"command","id":"lg-3-17","command":{"kind":"end-turn","actor":"ana"}}`, "", true},
	{`{"type":"command","id":"6f1c2d3e-aaaa-4bbb-8ccc-0123456789ab","command":{"kind":"end-turn","actor":"ana","entropy":"00112233445566778899aabbccddeeff"}}`, "", true},
	{`{"type":"command","id":"c-1","command":{"kind":"fight","actor":"brak","target":"goblin-1"}}`, "", true},
	{` {"command": {"kind":"x"} , "id":"c", "type":"command"}` + "\n", "", true},
	{`{"type":"command","id":"c-1","command":{"kind":"chat","text":"\u00e9"}}`, "", false},
	{`{"type":"command","id":"épée","command":{"kind":"start"}}`, "", false},
	{`{"type":"command","id":"c-1","command":{"kind":"x","n":1}}`, "", false},
	{`{"type":"command","id":"c-1","command":{"kind":""}}`, fray.EINVALID, false},
	{`{"type":"command","id":"","command":{"kind":"x"}}`, fray.EINVALID, false},
	{`{"type":"ping","id":"c","command":{"kind":"x"}}`, fray.EINVALID, false},
	{`{"type":"hello","id":"a"}`, fray.EINVALID, false},
	{`{"type":"command","id":"c","command":{"kind":"x"},"id":"d"}`, "", false},
	{`{"id":"","id":"c","command":{"kind":"x"}}`, fray.EINVALID, false},
	{`{"type":"command","id":"c","Command":{"kind":"x"}}`, fray.EINVALID, false},
	{`{"type":"command","id":"a","command":{"kind":"start"},"x":1}`, fray.EINVALID, false},
	{`{"type":"command","id":"c","command":{"kind":"x"}}}`, fray.EINVALID, false},
	{`{"type":"command","id":"a","command":{"kind":"start"}} {}`, fray.EINVALID, false},
	{`{`, fray.EINVALID, false},
	{`{"type":"command","id":"c","command":"x"}`, fray.EINVALID, false},
	{`{"type":"command","id":"a","command":[1]}`, fray.EINVALID, false},
	{`{"type":"command","id":{"a":"b"},"command":{"kind":"x"}}`, fray.EINVALID, false},
	{`{"type":"command","id":"c","command":{"kind":"x","entropy":"no spaces"}}`, fray.EINVALID, false},
	{"{\"type\":\"command\",\"id\":\"a\xff\",\"command\":{\"kind\":\"start\"}}", fray.EINVALID, false},             // invalid UTF-8
	{`{"type":"command","id":"a\udc00","command":{"kind":"start"}}`, fray.EINVALID, false},                         // a lone surrogate
	{`{"type":"command","id":"a\u0000","command":{"kind":"start"}}`, fray.EINVALID, false},                         // a control character
	{`{"type":"command","id":"` + strings.Repeat("x", 65) + `","command":{"kind":"start"}}`, fray.EINVALID, false}, // too long
	{`{"type":"command","id":"c-1","command":{"kind":"chat","text":"hi"}} `, "", true},
	{`{"type":"command","id":"c-1","command":{"kind":"chat","text":"a\u0000"}}`, fray.EINVALID, false},
	{`{"type":"command","id":"c-1","command":{"kind":"x"}}{"type":"command"}`, fray.EINVALID, false},
	{`{"type":"ping"}`, fray.EINVALID, false},
	{`{"type":"command","id":"","command":{}}`, fray.EINVALID, false},
	{`{"type":"command","id":"c\u0007","command":{"kind":"x"}}`, fray.EINVALID, false},
	{`{"type":"command","id":"c-2","command":{"kind":"x","a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}`, fray.EINVALID, false},
}

// TestDecodeClientMessage: a message is accepted or refused with its error
// code; the messages pages and bots send take decodePlainMessage's one
// pass (which reads them as decodeClientMessage does:
// FuzzDecodeClientMessage checks it on these cases, its seeds, in every
// go test); anything out of the ordinary is left to decodeClientMessage.
func TestDecodeClientMessage(t *testing.T) {
	for _, tc := range decodeCases {
		dm, dcmd, derr := DecodeClientMessage([]byte(tc.in))
		if fray.ErrorCode(derr) != tc.code {
			t.Errorf("%s: %v, want code %q", tc.in, derr, tc.code)
		}
		_, _, ok := decodePlainMessage([]byte(tc.in))
		if ok != tc.plain {
			t.Errorf("%s: plain %v, want %v", tc.in, ok, tc.plain)
		}
		if !ok {
			// What the one pass leaves is read as before: accepted or refused
			// with the ordinary reason.
			om, ocmd, err := decodeClientMessage([]byte(tc.in))
			if fmt.Sprint(derr) != fmt.Sprint(err) || dm.ID != om.ID || !reflect.DeepEqual(dcmd, ocmd) {
				t.Errorf("%s: %+v / %v, ordinary %+v / %v", tc.in, dcmd, derr, ocmd, err)
			}
		}
	}
}

// BenchmarkDecodeClientMessage: a page's end of turn read in one pass
// against the ordinary way (strictjson, then the command's maps).
func BenchmarkDecodeClientMessage(b *testing.B) {
	msg := []byte(`{"type":"command","id":"6f1c2d3e-aaaa-4bbb-8ccc-0123456789ab","command":{"kind":"end-turn","actor":"ana","entropy":"00112233445566778899aabbccddeeff"}}`)
	for _, bc := range []struct {
		name   string
		decode func([]byte) (ClientMessage, engine.Command, error)
	}{{"one-pass", DecodeClientMessage}, {"ordinary", decodeClientMessage}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := bc.decode(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
