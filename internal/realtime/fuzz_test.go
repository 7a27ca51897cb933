package realtime

import (
	"encoding/json"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

// FuzzDecodeClientMessage: whatever a client sends, the decoder answers a
// message and a command or a clear error (invalid or too_large), never
// panics, and what it accepts is exactly one JSON object whose command has
// a kind — a stray "}" or any other trailing byte is refused.
func FuzzDecodeClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"command","id":"c-1","command":{"kind":"fight","actor":"brak","target":"goblin-1"}}`,
		`{"type":"command","id":"c-1","command":{"kind":"fight","actor":"brak"}}}`,
		`{"type":"command","id":"c-1","command":{"kind":"chat","text":"hi"}} `,
		`{"type":"command","id":"c-1","command":{"kind":"chat","text":"a\u0000"}}`,
		`{"type":"command","id":"c-1","command":{"kind":"x"}}{"type":"command"}`,
		`{"type":"ping"}`,
		`{"type":"command","id":"","command":{}}`,
		`{"type":"command","id":"c\u0007","command":{"kind":"x"}}`,
		`{"type":"command","id":"c-2","command":[]}`,
		`{"type":"command","id":"c-2","command":{"kind":"x","a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}`,
		"{\"type\":\"command\",\"id\":\"\xff\",\"command\":{\"kind\":\"x\"}}",
	} {
		f.Add([]byte(s))
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
