package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// newestCardJS reads the newest roll card as the page shows it: its
// command, the dice faces and the modifier chips drawn (not hidden), and
// each headline of the tray cut short (clamped, or ending in "…").
const newestCardJS = `(() => {
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const cards = [...document.querySelectorAll('#cards .card')].filter(c => !c.classList.contains('leaving'));
  const last = cards[cards.length - 1];
  if (!last || !shown(last)) return {Command: ''};
  const cut = cards.filter(shown).map(c => c.querySelector('.card-text')).filter(h => {
    const s = getComputedStyle(h);
    return s.webkitLineClamp !== 'none' || s.textOverflow === 'ellipsis' || h.scrollHeight > h.clientHeight + 1 ||
      h.scrollWidth > h.clientWidth + 1 || /…\s*$/.test(h.textContent);
  }).map(h => h.textContent);
  return {Command: last.dataset.command || '', Faces: [...last.querySelectorAll('.cface')].filter(shown).length,
    Mods: [...last.querySelectorAll('.card-mods li .mod-src')].filter(shown).map(m => m.textContent.trim()),
    Cut: cut};
})()`

type newestCard struct {
	Command string
	Faces   int
	Mods    []string
	Cut     []string
}

// TestRollCardsKeepTheirDice plays the first example of every ruleset
// with the GM's page open at 1440×900 and at 390×844, and after every
// command that shows a roll card reads the newest one: every die face of
// the command's rolls and every modifier the rolls name are drawn on it,
// and no card's headline is cut short.
func TestRollCardsKeepTheirDice(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "9"})
	gm := srv.signup("cards-gm")
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var names []string
	for _, ex := range exs {
		if !seen[ex.Ruleset] {
			seen[ex.Ruleset] = true
			names = append(names, ex.Name)
		}
	}
	sizes := []struct {
		name string
		w, h int64
	}{{"desktop", 1440, 900}, {"phone", 390, 844}}
	checked := 0
	for _, size := range sizes {
		page := tabletop(t, size.w, size.h)
		login(t, page, srv.URL, gm.Name)
		for i, name := range names {
			ex, err := prep.ExampleNamed(name)
			if err != nil {
				t.Fatal(err)
			}
			var created struct{ ID string }
			if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
				t.Fatalf("import %s: %d", name, code)
			}
			id := created.ID
			steps(t, page, chromedp.Navigate(srv.URL+"/encounters/"+id), waitJS(`document.querySelector('#conn').dataset.state === 'live'`))
			rng := rand.New(rand.NewPCG(uint64(i), 41))
			for step := 0; step < 30; step++ {
				v := srv.viewAs(gm, id)
				if v.Status == engine.StatusFinished {
					break
				}
				cmd := contractPick(rng, v, nil)
				if cmd == nil {
					break
				}
				cid := fmt.Sprint(size.name, "-", step)
				var ack struct{ Seq int64 }
				srv.call(gm, "POST", "/api/encounters/"+id+"/commands", map[string]any{"id": cid, "command": cmd}, &ack)
				if ack.Seq == 0 {
					continue
				}
				steps(t, page, waitJS(fmt.Sprintf(`Number(document.getElementById('encounter').dataset.seq) >= %d`, ack.Seq)))
				checked += checkNewestCard(t, page, srv, gm, id, size.name+" "+name, cid)
			}
		}
	}
	if checked < 8 {
		t.Errorf("only %d roll cards checked", checked)
	}
	t.Logf("%d roll cards checked", checked)
}

// checkNewestCard checks the newest card when it is the card of command
// cid, against that command's events as the GM reads them; it returns 1
// when it checked one.
func checkNewestCard(t *testing.T, page context.Context, srv *testServer, gm *apiUser, id, name, cid string) int {
	t.Helper()
	var card newestCard
	steps(t, page, settled(), chromedp.Evaluate(newestCardJS, &card))
	if len(card.Cut) > 0 {
		t.Errorf("%s: headlines cut short: %q", name, card.Cut)
	}
	if card.Command != cid {
		return 0
	}
	var evs struct{ Events []engine.Event }
	srv.call(gm, "GET", "/api/encounters/"+id+"/events", nil, &evs)
	faces := 0
	var mods []string
	for _, ev := range evs.Events {
		if ev.Command != cid {
			continue
		}
		for _, r := range ev.Rolls {
			if r.IsPick() {
				continue
			}
			for _, d := range r.Dice {
				faces += len(d.Faces)
			}
			for _, m := range r.Mods {
				mods = append(mods, m.Label)
			}
			if len(r.Mods) == 0 && r.Mod != 0 {
				mods = append(mods, "modifier")
			}
		}
	}
	if card.Faces < faces {
		t.Errorf("%s: the newest card shows %d of its %d dice", name, card.Faces, faces)
	}
	shown := strings.Join(card.Mods, "\n")
	for _, m := range mods {
		if !strings.Contains(shown, m) {
			t.Errorf("%s: the newest card does not show the modifier %q (shown: %q)", name, m, card.Mods)
		}
	}
	return 1
}
