package web

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/simulate"
)

// TestBrowserGridTokenParts (which also reports the markup per update and
// the main-thread CPU per update, with and without parts: run with -v):
// the GM's page of a grid board in Chromium,
// sent a bot-played fight's updates as the hub sends them with parts (a
// token on the grid, an SVG group, alone), ends showing what the same
// updates sent as whole sections leave: the same markup, and every token
// of the drawing an SVG element drawn where the full render draws it (an
// SVG part parsed as HTML would make an element the drawing never shows).
func TestBrowserGridTokenParts(t *testing.T) {
	rs, st := startedExample(t, "d20-tactical-rooftop-crossfire")
	viewer := engine.GMViewer()
	roller := dice.NewRoller(dice.NewSeeded(5))
	policy := simulate.PolicyFor(rs)
	r := replay(t, rs, st, viewer, func(i int, st engine.State) ([]engine.Event, engine.State, bool) {
		if i == 24 || st.Core().Status != engine.StatusRunning {
			return nil, nil, false
		}
		offer := engine.NewOffer(rs, st, nil)
		for refused := 0; ; refused++ {
			cmd, ok := policy.Next(st, offer)
			if !ok || refused > 50 {
				t.Fatalf("command %d: the bot has nothing to do", i)
			}
			if events, next, err := engine.DecideOwned(rs, st, viewer, "c"+itoa(i)+"-"+itoa(refused), cmd, roller, nil); err == nil {
				return events, next, true
			}
			offer.Refuse(cmd)
		}
	})
	gridParts := 0
	for _, u := range r.sent {
		for id := range u.parts {
			if strings.HasPrefix(id, "gtok-") {
				gridParts++
			}
		}
	}
	if gridParts < 5 {
		t.Fatalf("%d grid tokens were sent as parts in %d updates", gridParts, len(r.sent))
	}
	samePage(t, r, func(list []pageUpdate, cpu []float64, show string) {
		withParts := partsIn(list) > 0
		t.Logf("with parts %v: %d bytes of markup per update on average", withParts, markupBytes(list)/len(list))
		if len(cpu) > 1 {
			t.Logf("with parts %v, %d updates: main-thread CPU ms per update (the trace's thread time): %s", withParts, len(cpu)-1, spread(cpu))
		}
		if !strings.Contains(show, "\ndrawn gtok-") {
			t.Fatalf("with parts %v: no token drawn on the grid:\n%s", withParts, show)
		}
	})
}
