package web

import (
	"regexp"
	"testing"

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
	r := replay(t, rs, st, engine.PlayerViewer(pc), endTurns(t, rs, 12))
	if partsIn(r.sent) == 0 {
		t.Fatal("no update was sent as parts")
	}
	mine := regexp.MustCompile(`class="[^"]*\bmine\b`)
	samePage(t, r, func(list []pageUpdate, _ []float64, show string) {
		if n := len(mine.FindAllString(show, -1)); n < 2 {
			t.Errorf("with %d parts: %d elements marked mine (want the token's face and its roster row)", partsIn(list), n)
		}
	})
}

// samePage plays r's updates to a page in Chromium twice, as whole
// sections and as the hub sends them (parts), hands each page to check
// with the list it was sent and the main-thread CPU of each message, and
// fails when the two pages differ.
func samePage(t *testing.T, r replayed, check func(list []pageUpdate, cpu []float64, show string)) {
	t.Helper()
	var shows []string
	for _, list := range [][]pageUpdate{r.whole, r.sent} {
		_, cpu, show := playToGM(t, r, list)
		check(list, cpu, show)
		shows = append(shows, show)
	}
	if shows[0] != shows[1] {
		t.Errorf("the page after parts differs from the page after whole sections:\n%s\n\n%s", shows[1], shows[0])
	}
}
