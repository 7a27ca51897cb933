package realtime

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// An update's frames go first to the acting client, then to the table (the
// GM, the players), and only then to those who only watch.
func TestBroadcastOrderTableBeforeWatchers(t *testing.T) {
	room := map[*client]struct{}{}
	add := func(v engine.Viewer) *client {
		c := &client{viewer: v}
		room[c] = struct{}{}
		return c
	}
	var watchers []*client
	for range 20 {
		watchers = append(watchers, add(engine.Viewer{}))
	}
	gm := add(engine.GMViewer())
	player := add(engine.PlayerViewer("pc1"))
	acting := add(engine.PlayerViewer("pc2"))
	isWatcher := map[*client]bool{}
	for _, w := range watchers {
		isWatcher[w] = true
	}

	for _, origin := range []any{acting, nil} {
		got := broadcastOrder(room, origin)
		if len(got) != len(room) {
			t.Fatalf("origin %v: %d clients, want %d", origin, len(got), len(room))
		}
		table := got
		if origin != nil {
			if got[0] != acting {
				t.Fatalf("the acting client is not first")
			}
			table = got[1:]
		}
		want := 2
		if origin == nil {
			want = 3
		}
		for i, c := range table {
			if isWatcher[c] != (i >= want) {
				t.Fatalf("origin %v: client %d (%+v) out of order", origin, i, c.viewer)
			}
		}
		seen := map[*client]bool{}
		for _, c := range got {
			seen[c] = true
		}
		if !seen[gm] || !seen[player] || !seen[acting] || len(seen) != len(room) {
			t.Fatalf("origin %v: not every client listed once", origin)
		}
	}
}
