package server

import "testing"

// TestPutDeadline: a GM sets a turn deadline; bad durations and fallbacks
// are 400 and reach no service.
func TestPutDeadline(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		code       int
	}{
		{"good", `{"after":"24h","remindBefore":"2h","fallback":"next-turn"}`, 200},
		{"no reminder", `{"after":"90m","fallback":"pause"}`, 200},
		{"not a duration", `{"after":"a day","fallback":"pause"}`, 400},
		{"too short", `{"after":"30s","fallback":"pause"}`, 400},
		{"reminder after", `{"after":"1h","remindBefore":"2h","fallback":"pause"}`, 400},
		{"unknown fallback", `{"after":"1h","fallback":"coin-flip"}`, 400},
		{"unknown field", `{"after":"1h","fallback":"pause","when":"now"}`, 400},
	} {
		w := newWorld(t, nil)
		res := w.do(t, req{method: "PUT", path: "/api/encounters/enc/deadline", json: tc.body, as: "gm"})
		if res.StatusCode != tc.code {
			t.Errorf("%s: %d, want %d", tc.name, res.StatusCode, tc.code)
		}
		if set := w.calls.has("SetDeadline enc 24h0m0s next-turn") || w.calls.has("SetDeadline enc 1h30m0s pause"); set != (tc.code == 200) {
			t.Errorf("%s: set %v", tc.name, set)
		}
	}
}
