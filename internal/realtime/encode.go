package realtime

import gojson "github.com/goccy/go-json"

// marshal encodes what frames carry: projections, events, whole messages.
// Every update encodes the GM's full view (≈ 14 KB for a six-fighter
// sw-zones fight) for each kind of client that wants it, which made
// encoding/json's reflection one of the largest costs of a command;
// goccy/go-json writes the same bytes (TestFramesEncodeAsEncodingJSON holds it
// to that for every view of every example fight) in half the time.
func marshal(v any) ([]byte, error) { return gojson.Marshal(v) }

// appendJSON appends v's encoding (as marshal's, with opts) to b.
func appendJSON(b []byte, v any, opts ...gojson.EncodeOptionFunc) ([]byte, error) {
	w := appender{b}
	if err := gojson.NewEncoder(&w).EncodeWithOption(v, opts...); err != nil {
		return b, err
	}
	return w.b[:len(w.b)-1], nil // Encode ends with a newline
}

// appender is an io.Writer appending to a slice.
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}
