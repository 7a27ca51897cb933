package realtime

import (
	"context"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/web"
)

// TestPageFrameBytes REPORTS (it asserts nothing but that frames came) the
// bytes of the frames an encounter page gets over the first 60 commands of
// a bot-played fight of sw-zones-dusty-gulch, for the GM and for a
// spectator (a member without characters): at the end of a turn (an update
// with a turn-started event) and over all updates. Run with -v; see
// docs/performance.md, "Fan-out to 2,000 sockets".
//
//	go test ./internal/realtime -run TestPageFrameBytes -v
func TestPageFrameBytes(t *testing.T) {
	updates := recordFight(t, "sw-zones-dusty-gulch", 60)
	hub := NewHub(Config{Render: web.Fragments, SendQueue: 1 << 12,
		Pages: func() PageRenderer { return testPages{web.NewSections()} },
		RenderEntries: func(ctx context.Context, v engine.View, events []engine.Event, _ bool) (map[string]string, error) {
			return web.EntryFragments(ctx, v, events)
		}})
	viewers := map[string]engine.Viewer{"GM": engine.GMViewer(), "spectator": {}}
	clients := map[string]*client{}
	for name, v := range viewers {
		c := &client{hub: hub, encounter: "e", viewer: v, html: true, send: newQueue(1 << 12)}
		hub.add(c)
		clients[name] = c
	}
	turns, all := map[string][]int{}, map[string][]int{}
	for _, u := range updates.list {
		hub.Publish(u)
		endOfTurn := slices.ContainsFunc(u.Events, func(ev engine.Event) bool { return ev.Kind == "turn-started" })
		for name, c := range clients {
			n := 0
			for f, ok := c.send.pop(); ok; f, ok = c.send.pop() {
				n += len(f.data)
			}
			all[name] = append(all[name], n)
			if endOfTurn {
				turns[name] = append(turns[name], n)
			}
		}
	}
	for _, name := range []string{"GM", "spectator"} {
		if len(turns[name]) == 0 {
			t.Fatalf("%s: no end of turn", name)
		}
		t.Logf("%s page: end of turn (%d updates): mean %d B, p50 %d B, max %d B; all %d updates: mean %d B",
			name, len(turns[name]), mean(turns[name]), pct(turns[name], 0.5), pct(turns[name], 1), len(all[name]), mean(all[name]))
	}
}

func mean(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s / len(xs)
}

func pct(xs []int, q float64) int {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}
