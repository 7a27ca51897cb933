package web

import (
	"context"
	"slices"
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
	ctx := WithActURL(context.Background(), "/act")
	first := engine.Project(rs, st, viewer)
	firstHTML, err := Fragments(ctx, first, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	sections := NewSections()
	shownHTML, err := sections.Render(ctx, first, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	sections.Next()
	roller := dice.NewRoller(dice.NewSeeded(5))
	policy := simulate.PolicyFor(rs)
	var list []hubUpdate
	gridParts := 0
	for i := 0; len(list) < 24 && st.Core().Status == engine.StatusRunning; i++ {
		offer := engine.NewOffer(rs, st, nil)
		var events []engine.Event
		for refused := 0; ; refused++ {
			cmd, ok := policy.Next(st, offer)
			if !ok || refused > 50 {
				t.Fatalf("command %d: the bot has nothing to do", i)
			}
			var next engine.State
			if events, next, err = engine.DecideOwned(rs, st, viewer, "c"+itoa(i)+"-"+itoa(refused), cmd, roller, nil); err == nil {
				st = next
				break
			}
			offer.Refuse(cmd)
		}
		html, err := sections.Render(ctx, engine.Project(rs, st, viewer), events, false)
		if err != nil {
			t.Fatal(err)
		}
		sections.Next()
		u := asHubSends(st.Core().Seq, events, shownHTML, html)
		for id := range u.parts {
			if strings.HasPrefix(id, "gtok-") {
				gridParts++
			}
		}
		list = append(list, u)
		shownHTML = html
	}
	if gridParts < 5 {
		t.Fatalf("%d grid tokens were sent as parts in %d updates", gridParts, len(list))
	}
	var shows []string
	for _, withParts := range []bool{false, true} {
		size := 0
		for _, u := range list {
			if withParts {
				size += markupBytes(u.html) + markupBytes(u.parts)
			} else {
				size += markupBytes(u.whole)
			}
		}
		_, cpu, show := playToGM(t, first, firstHTML, len(list), func(yield func(int64, []engine.Event, map[string]string, map[string]string)) {
			for _, u := range list {
				if withParts {
					yield(u.seq, u.events, u.html, u.parts)
				} else {
					yield(u.seq, u.events, u.whole, nil)
				}
			}
		})
		t.Logf("with parts %v: %d bytes of markup per update on average", withParts, size/len(list))
		if len(cpu) > 1 {
			upd := slices.Clone(cpu[1:]) // the first message is the snapshot
			slices.Sort(upd)
			p := func(q float64) float64 { return upd[min(len(upd)-1, int(q*float64(len(upd))))] }
			t.Logf("with parts %v, %d updates: main-thread CPU ms per update (the trace's thread time): p50 %.2f, p95 %.2f, mean %.2f",
				withParts, len(upd), p(0.5), p(0.95), meanOf(upd))
		}
		if !strings.Contains(show, "\ndrawn gtok-") {
			t.Fatalf("with parts %v: no token drawn on the grid:\n%s", withParts, show)
		}
		shows = append(shows, show)
	}
	if shows[0] != shows[1] {
		t.Errorf("the page after parts differs from the page after whole sections:\n%s\n\n%s", shows[1], shows[0])
	}
}

func markupBytes(m map[string]string) int {
	n := 0
	for _, h := range m {
		n += len(h)
	}
	return n
}

func meanOf(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
