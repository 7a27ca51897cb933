package web

import (
	"context"
	"regexp"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// TestBrowserPartsKeepMine: a player's page in Chromium, sent end-of-turn
// updates as the hub sends them with parts (roster rows and faces alone),
// still marks the player's own token "mine" (app.js marks a part as it does
// a new battlefield: the server's markup is the same for every viewer), and
// ends showing what the same updates sent as whole sections leave.
func TestBrowserPartsKeepMine(t *testing.T) {
	rs, st := startedExample(t, "sw-zones-dusty-gulch")
	var pc string
	for _, c := range st.Core().Combatants {
		if c.PC {
			pc = c.ID
			break
		}
	}
	viewer := engine.PlayerViewer(pc)
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
	var list []hubUpdate
	sentParts := 0
	for i := range 12 {
		v := engine.Project(rs, st, engine.GMViewer())
		events, next, err := engine.DecideOwned(rs, st, engine.GMViewer(), "c"+itoa(i), engine.NewCommand("end-turn", v.Current, nil), roller, nil)
		if err != nil {
			t.Fatalf("end-turn %d: %v", i, err)
		}
		st = next
		html, err := sections.Render(ctx, engine.Project(rs, st, viewer), events, false)
		if err != nil {
			t.Fatal(err)
		}
		sections.Next()
		u := asHubSends(st.Core().Seq, events, shownHTML, html)
		sentParts += len(u.parts)
		list = append(list, u)
		shownHTML = html
	}
	if sentParts == 0 {
		t.Fatal("no update was sent as parts")
	}
	mine := regexp.MustCompile(`class="[^"]*\bmine\b`)
	var shows []string
	for _, withParts := range []bool{false, true} {
		_, _, show := playToGM(t, first, firstHTML, len(list), func(yield func(int64, []engine.Event, map[string]string, map[string]string)) {
			for _, u := range list {
				if withParts {
					yield(u.seq, u.events, u.html, u.parts)
				} else {
					yield(u.seq, u.events, u.whole, nil)
				}
			}
		})
		if n := len(mine.FindAllString(show, -1)); n < 2 {
			t.Errorf("with parts %v: %d elements marked mine (want the token's face and its roster row)", withParts, n)
		}
		shows = append(shows, show)
	}
	if shows[0] != shows[1] {
		t.Errorf("the page after parts differs from the page after whole sections:\n%s\n\n%s", shows[1], shows[0])
	}
}
