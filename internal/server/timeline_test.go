package server

import (
	"strings"
	"testing"
)

// The timeline asks the history for what the member may see and links the
// GM's carry-over of a finished encounter; the player gets no such link.
func TestTimelinePage(t *testing.T) {
	w := newWorld(t, nil)
	gm := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp/timeline", as: "gm", html: true}))
	if !w.calls.has("Timeline gm") {
		t.Fatal("the GM's timeline was not read as the GM's")
	}
	for _, want := range []string{"Toy fight", "Heroes win", "Orc", "/encounters/enc/log", "/encounters/enc/carry-over", "/campaigns/camp/characters/hero#rev-2"} {
		if !strings.Contains(gm, want) {
			t.Errorf("the GM's timeline lacks %q", want)
		}
	}
	pl := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp/timeline", as: "pl", html: true}))
	if !w.calls.has("Timeline player") {
		t.Fatal("the player's timeline was not read as a player's")
	}
	if strings.Contains(pl, "/carry-over") {
		t.Error("the player's timeline links the carry-over")
	}
}
