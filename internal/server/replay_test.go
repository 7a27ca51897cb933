package server

import (
	"encoding/json"
	"testing"
)

func TestReplay(t *testing.T) {
	w := newWorld(t, nil)
	for _, q := range []string{"seq=-1", "seq=x"} {
		if res := w.do(t, req{method: "GET", path: "/api/encounters/enc/replay?" + q, as: "pl"}); res.StatusCode != 400 {
			t.Errorf("replay?%s: %d", q, res.StatusCode)
		}
	}
	res := w.do(t, req{method: "GET", path: "/api/encounters/enc/replay?seq=1", as: "pl"})
	var got struct {
		Seq, Latest, Prev, Next int64
		View                    json.RawMessage
		Event                   *json.RawMessage
	}
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || got.Seq != 1 || got.Latest != 2 || got.Prev != -1 || got.Next != 1 || len(got.View) == 0 {
		t.Fatalf("%+v %v", got, err)
	}
	if res := w.do(t, req{method: "GET", path: "/encounters/enc/replay", as: "pl", html: true}); res.StatusCode != 200 {
		t.Fatalf("the page: %d", res.StatusCode)
	}
	if w.calls.has("Current enc") {
		t.Fatal("the replay loaded the live encounter")
	}
}
