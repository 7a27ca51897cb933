package main

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fray-vtt/fray/internal/testdb"
)

// TestTargetLineAndEscape: the player picks a target on the board at
// 1440×900 and 390×844 with a roll card on the screen; the action's form
// opens, and with the actions scrolled to their end the target line is
// still in view. Escape twice leaves the form and clears the target (the
// roll card stays: a third Escape is for it).
func TestTargetLineAndEscape(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "5"})
	night := newGameNight(srv)
	for _, size := range []struct {
		name  string
		w, h  int64
		phone bool
	}{{"desktop", 1440, 900, false}, {"phone", 390, 844, true}} {
		id, actor, target := night.encounter("sw-zones-goblin-ford")
		page := tabletop(t, size.w, size.h)
		login(t, page, srv.URL, night.player.Name)
		steps(t, page, chromedp.Navigate(srv.URL+"/encounters/"+id), waitJS(`document.querySelector('#conn').dataset.state === 'live'`),
			chromedp.Evaluate(inViewJS, nil))
		if code, e := srv.command(night.gm, id, "card-"+size.name, map[string]any{"kind": "free-roll", "dice": "1d6", "label": "luck"}); code != http.StatusOK {
			t.Fatalf("free roll: %d %+v", code, e)
		}
		steps(t, page, waitJS(`document.querySelectorAll('#cards .card').length > 0`))
		if size.phone {
			steps(t, page, chromedp.Click("#tab-board", chromedp.ByID), waitJS(`document.getElementById('encounter').dataset.tab === 'board'`))
		}
		steps(t, page, chromedp.Evaluate(fmt.Sprintf(`document.querySelector('#battlefield [data-token=%q]').dispatchEvent(new MouseEvent('click', {bubbles: true}))`, target), nil),
			waitJS(`!document.getElementById('target-line').hidden && !!document.querySelector('#actions details.act[open]')`), settled())
		// The actions scrolled to their end: the pane on a desktop, the
		// page on a phone.
		steps(t, page, chromedp.Evaluate(`(() => { const p = document.getElementById('pane-act'); p.scrollTop = p.scrollHeight;
			window.scrollTo(0, document.documentElement.scrollHeight); })()`, nil), settled())
		var shown bool
		steps(t, page, chromedp.Evaluate(`inView(document.getElementById('target-line'))`, &shown))
		keepScreenshot(page, "target-line-"+size.name)
		if !shown {
			t.Errorf("%s: %s's target line is out of view with the form open", size.name, actor)
		}
		var cleared bool
		var cards int
		steps(t, page, chromedp.KeyEvent(kb.Escape), chromedp.KeyEvent(kb.Escape), settled(),
			chromedp.Evaluate(`document.getElementById('target-line').hidden && !document.querySelector('#battlefield .selected')`, &cleared),
			chromedp.Evaluate(`document.querySelectorAll('#cards .card:not(.leaving)').length`, &cards))
		if !cleared {
			t.Errorf("%s: Escape twice did not clear the target", size.name)
		}
		if cards == 0 {
			t.Errorf("%s: Escape twice dismissed the roll cards before the target", size.name)
		}
	}
}
