package realtime

import gojson "github.com/goccy/go-json"

// marshal encodes what frames carry: projections, events, whole messages.
// Every update encodes the GM's full view (≈ 14 KB for a six-fighter
// sw-zones fight) for each kind of client that wants it, which made
// encoding/json's reflection one of the largest costs of a command;
// goccy/go-json writes the same bytes (TestFramesEncodeAsEncodingJSON holds it
// to that for every view of every example fight) in half the time.
func marshal(v any) ([]byte, error) { return gojson.Marshal(v) }
