package realtime

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// An update's frames go first to the acting client, then to the table (the
// GM, the players), and only then to those who only watch.
func TestBroadcastOrderTableBeforeWatchers(t *testing.T) {
	room := map[*client]struct{}{}
	role := map[*client]string{} // "t": at the table, "w": watches
	add := func(v engine.Viewer, r string) *client {
		c := &client{viewer: v}
		room[c], role[c] = struct{}{}, r
		return c
	}
	for range 20 {
		add(engine.Viewer{}, "w")
	}
	add(engine.GMViewer(), "t")
	add(engine.PlayerViewer("pc1"), "t")
	acting := add(engine.PlayerViewer("pc2"), "t")
	for origin, want := range map[any]string{acting: "att", nil: "ttt"} {
		got := broadcastOrder(room, origin)
		seen := map[*client]bool{}
		order := ""
		for _, c := range got {
			seen[c] = true
			if any(c) == origin {
				order += "a"
			} else {
				order += role[c]
			}
		}
		want += strings.Repeat("w", 20)
		if order != want || len(seen) != len(room) || len(got) != len(room) {
			t.Fatalf("origin %v: order %s, want %s, every client once", origin, order, want)
		}
	}
}
