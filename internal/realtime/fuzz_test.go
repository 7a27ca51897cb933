package realtime

import (
	"encoding/json"
	"strings"
	"testing"

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
// DecodeClientMessage answers ("" when it accepts it).
var decodeCases = []struct {
	in   string
	code string
}{
	{`{"type":"command","id":"lg-3-17","command":{"kind":"end-turn","actor":"ana"}}`, ""},
	{`{"type":"command","id":"6f1c2d3e-aaaa-4bbb-8ccc-0123456789ab","command":{"kind":"end-turn","actor":"ana","entropy":"00112233445566778899aabbccddeeff"}}`, ""},
	{`{"type":"command","id":"c-1","command":{"kind":"fight","actor":"brak","target":"goblin-1"}}`, ""},
	{` {"command": {"kind":"x"} , "id":"c", "type":"command"}` + "\n", ""},
	{`{"type":"command","id":"c-1","command":{"kind":"chat","text":"\u00e9"}}`, ""},
	{`{"type":"command","id":"épée","command":{"kind":"start"}}`, ""},
	{`{"type":"command","id":"c-1","command":{"kind":"x","n":1}}`, ""},
	{`{"type":"command","id":"c-1","command":{"kind":""}}`, fray.EINVALID},
	{`{"type":"command","id":"","command":{"kind":"x"}}`, fray.EINVALID},
	{`{"type":"ping","id":"c","command":{"kind":"x"}}`, fray.EINVALID},
	{`{"type":"hello","id":"a"}`, fray.EINVALID},
	{`{"type":"command","id":"c","command":{"kind":"x"},"id":"d"}`, ""},
	{`{"id":"","id":"c","command":{"kind":"x"}}`, fray.EINVALID},
	{`{"type":"command","id":"c","Command":{"kind":"x"}}`, fray.EINVALID},
	{`{"type":"command","id":"a","command":{"kind":"start"},"x":1}`, fray.EINVALID},
	{`{"type":"command","id":"c","command":{"kind":"x"}}}`, fray.EINVALID},
	{`{"type":"command","id":"a","command":{"kind":"start"}} {}`, fray.EINVALID},
	{`{`, fray.EINVALID},
	{`{"type":"command","id":"c","command":"x"}`, fray.EINVALID},
	{`{"type":"command","id":"a","command":[1]}`, fray.EINVALID},
	{`{"type":"command","id":{"a":"b"},"command":{"kind":"x"}}`, fray.EINVALID},
	{`{"type":"command","id":"c","command":{"kind":"x","entropy":"no spaces"}}`, fray.EINVALID},
	{"{\"type\":\"command\",\"id\":\"a\xff\",\"command\":{\"kind\":\"start\"}}", fray.EINVALID},             // invalid UTF-8
	{`{"type":"command","id":"a\udc00","command":{"kind":"start"}}`, fray.EINVALID},                         // a lone surrogate
	{`{"type":"command","id":"a\u0000","command":{"kind":"start"}}`, fray.EINVALID},                         // a control character
	{`{"type":"command","id":"` + strings.Repeat("x", 65) + `","command":{"kind":"start"}}`, fray.EINVALID}, // too long
	{`{"type":"command","id":"c-1","command":{"kind":"chat","text":"hi"}} `, ""},
	{`{"type":"command","id":"c-1","command":{"kind":"chat","text":"a\u0000"}}`, fray.EINVALID},
	{`{"type":"command","id":"c-1","command":{"kind":"x"}}{"type":"command"}`, fray.EINVALID},
	{`{"type":"ping"}`, fray.EINVALID},
	{`{"type":"command","id":"","command":{}}`, fray.EINVALID},
	{`{"type":"command","id":"c\u0007","command":{"kind":"x"}}`, fray.EINVALID},
	{`{"type":"command","id":"c-2","command":{"kind":"x","a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}`, fray.EINVALID},
}

// TestDecodeClientMessage: a message is accepted or refused with its error
// code.
func TestDecodeClientMessage(t *testing.T) {
	for _, tc := range decodeCases {
		if _, _, err := DecodeClientMessage([]byte(tc.in)); fray.ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want code %q", tc.in, err, tc.code)
		}
	}
}
