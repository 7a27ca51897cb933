package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestBrowserPrepByKeyboard: the draft editor's board works without a
// pointer. On a grid, a bestiary entry is picked with Enter, the arrows
// move the board's cursor, Enter puts it on the square (C2); its chip is
// picked and it is moved a square down the same way; Ctrl+Z undoes the
// move and Ctrl+Shift+Z redoes it; Escape gives the focus back to the
// chip. On zones, two zones are connected by Enter on one and the other.
// The page never reloads.
func TestBrowserPrepByKeyboard(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gmUser := srv.signup("gamemaster")
	var camp struct{ ID string }
	srv.withUser(gmUser).do("POST", "/api/campaigns", map[string]string{"name": "Keyboard prep"}, &camp)
	c := "/campaigns/" + camp.ID
	gm := tab(t, browserSized(t, 1300, 1200))
	login(t, gm, srv.URL, gmUser.Name)
	key := func(k string, mods ...input.Modifier) chromedp.Action {
		if len(mods) > 0 {
			return chromedp.KeyEvent(k, chromedp.KeyModifiers(mods...))
		}
		return chromedp.KeyEvent(k)
	}
	focused := func(id string) chromedp.Action {
		return waitJS(fmt.Sprintf(`document.activeElement && document.activeElement.id === %q`, id))
	}
	newDraft := func(t *testing.T, m string) {
		rs, switchModel := rulesetFor(t, m)
		foes := twoFoes(t, rs.ID())
		foes[0]["id"] = "ally-" + m
		file, _ := json.Marshal(foes[:1])
		if r := srv.upload(gmUser, c+"/bestiary/import", file); r.code != 303 {
			t.Fatalf("bestiary: %d %s", r.code, r.body)
		}
		steps(t, gm, chromedp.Navigate(srv.URL+c), chromedp.WaitVisible(`#new-draft-name`, chromedp.ByQuery),
			chromedp.SendKeys(`#new-draft-name`, "Keys on "+m, chromedp.ByQuery),
			setValue("new-draft-ruleset", rs.ID()),
			submits(`#create-draft`), // the draft's page loaded whole: its scripts run before a key is pressed
			chromedp.WaitVisible(`#board-preview`, chromedp.ByQuery))
		if switchModel {
			steps(t, gm, setValue("board-model", m), chromedp.Click(`#set-model`, chromedp.ByQuery),
				waitJS(fmt.Sprintf(`document.querySelector('#board-preview').dataset.model === %q`, m)))
		}
		steps(t, gm, chromedp.Evaluate(`window.__marker = 'kept'`, nil))
		// Every form of an editor swapped in is posted in place from the
		// swap's own task on: a key pressed right after must not post one
		// the old way (a reload), so nothing may wait for a timer.
		steps(t, gm, chromedp.Evaluate(`window.__unboosted = [];
document.body.addEventListener('htmx:afterSwap', () => queueMicrotask(() => {
  for (const f of document.querySelectorAll('#draft-editor form')) {
    if (!f.closest('[hx-boost="false"]') && !(f['htmx-internal-data'] || {}).boosted) window.__unboosted.push(f.id || f.action);
  }
}))`, nil))
	}
	// run is steps that says where the focus and the cursor were when it
	// failed.
	run := func(t *testing.T, acts ...chromedp.Action) {
		t.Helper()
		ctx, cancel := patience.Context(gm)
		defer cancel()
		if err := chromedp.Run(ctx, acts...); err != nil {
			var state string
			_ = chromedp.Run(gm, chromedp.Evaluate(`JSON.stringify({ focus: document.activeElement && document.activeElement.id,
				cursor: (document.querySelector('#board-preview') || {dataset: {}}).dataset.cursor,
				chips: [...document.querySelectorAll('#tray-combatants .chip')].map(c => c.textContent.trim()),
				error: (document.getElementById('edit-error') || {}).textContent })`, &state))
			t.Fatalf("%v; the page: %s", err, state)
		}
	}
	kept := func(t *testing.T) {
		t.Helper()
		var marker string
		steps(t, gm, chromedp.Evaluate(`window.__marker || ''`, &marker))
		if marker != "kept" {
			t.Fatal("the page reloaded while the board was edited by keyboard")
		}
		var unboosted []string
		steps(t, gm, chromedp.Evaluate(`window.__unboosted`, &unboosted))
		if len(unboosted) > 0 {
			t.Fatalf("forms of a swapped-in editor were not yet posted in place once the swap's task ended: %v", unboosted[:min(3, len(unboosted))])
		}
	}

	t.Run(board.Grid, func(t *testing.T) {
		newDraft(t, board.Grid)
		chip := `document.querySelector('#tray-combatants .chip')`
		// The entry picked, the cursor moved two right and one down, put.
		run(t, chromedp.Focus(`#add-b-ally-grid`, chromedp.ByQuery), key(kb.Enter), focused("board-preview"),
			key(kb.ArrowRight), key(kb.ArrowRight), key(kb.ArrowDown),
			waitJS(`document.querySelector('#board-preview').dataset.cursor === '2,1'`),
			key(kb.Enter), waitJS(chip+` && `+chip+`.textContent.includes('C2')`))
		// Its chip picked (the cursor stays at C2), one down, put: moved.
		run(t, chromedp.Evaluate(chip+`.focus()`, nil), key(kb.Enter), focused("board-preview"),
			key(kb.ArrowDown), key(kb.Enter), waitJS(chip+`.textContent.includes('C3')`))
		// Undone and redone from the keyboard.
		run(t, key("z", input.ModifierCtrl), waitJS(chip+`.textContent.includes('C2')`),
			key("Z", input.ModifierCtrl, input.ModifierShift), waitJS(chip+`.textContent.includes('C3')`),
			waitJS(`!document.getElementById('undo').disabled && document.getElementById('redo').disabled`))
		// Escape leaves the board for the chip.
		run(t, chromedp.Evaluate(chip+`.focus()`, nil), key(kb.Enter), focused("board-preview"),
			key(kb.Escape), waitJS(`document.activeElement === `+chip))
		kept(t)

		// The combatant's stat block changed for this encounter only: its
		// name and a value of the ruleset's stat form; the bestiary entry
		// stays as it was.
		bestiary := func() string { return string(srv.get(gmUser, c+"/bestiary.json").body) }
		before := bestiary()
		var draftURL string
		run(t, chromedp.Location(&draftURL))
		run(t, chromedp.Evaluate(`document.querySelector('#combatant-list a[id$="-stats"]').click()`, nil),
			chromedp.WaitVisible(`.draft-stats`, chromedp.ByQuery),
			chromedp.SetValue(`.draft-stats input[name="name"]`, "Ally Veteran", chromedp.ByQuery),
			chromedp.Evaluate(`(() => { const n = document.querySelector('.draft-stats input[type=number]'); n.value = String((+n.value || 0) + 1); })()`, nil),
			chromedp.Click(`.draft-stats button[type=submit]`, chromedp.ByQuery),
			waitJS(chip+`.textContent.includes('Ally Veteran') && !document.querySelector('.draft-stats')`))
		kept(t)
		if after := bestiary(); after != before {
			t.Fatalf("the bestiary changed with the draft's copy:\n%s\n%s", before, after)
		}
		setup := string(srv.get(gmUser, draftURL[len(srv.URL):]+"/setup.json").body)
		if !strings.Contains(setup, "Ally Veteran") || strings.Contains(before, "Ally Veteran") {
			t.Fatalf("the draft's copy was not changed: %s", setup)
		}
		var entry []struct{ Stats json.RawMessage }
		var copied struct {
			Combatants []struct{ Stats json.RawMessage }
		}
		if json.Unmarshal([]byte(before), &entry) != nil || json.Unmarshal([]byte(setup), &copied) != nil ||
			len(entry) != 1 || len(copied.Combatants) != 1 || sameJSON(t, entry[0].Stats, copied.Combatants[0].Stats) {
			t.Fatalf("the draft's stats are the bestiary's: %s / %s", before, setup)
		}
	})

	t.Run(board.Zones, func(t *testing.T) {
		newDraft(t, board.Zones)
		for i, name := range []string{"Mail car", "Locomotive"} {
			run(t, chromedp.Focus(`#zone-name`, chromedp.ByQuery), chromedp.SendKeys(`#zone-name`, name+"\r", chromedp.ByQuery),
				waitJS(fmt.Sprintf(`document.querySelectorAll('#board-preview [data-area]').length === %d`, i+1)))
		}
		// The board focused (Tab would reach it), Enter on the first zone,
		// the cursor on to the second, Enter: connected.
		run(t, chromedp.Focus(`#board-preview`, chromedp.ByQuery), key(kb.Enter),
			waitJS(`document.querySelector('#board-preview').dataset.cursor === 'mail-car'`),
			key(kb.Enter), key(kb.ArrowRight), waitJS(`document.querySelector('#board-preview').dataset.cursor === 'locomotive'`),
			key(kb.Enter), waitJS(`document.querySelectorAll('#board-preview .zlinks line').length === 1`))
		// The entry put into the Locomotive.
		run(t, chromedp.Focus(`#add-b-ally-zones`, chromedp.ByQuery), key(kb.Enter), focused("board-preview"),
			waitJS(`document.querySelector('#board-preview').dataset.cursor === 'locomotive'`),
			key(kb.Enter), waitJS(`document.querySelector('#tray-combatants .chip') && document.querySelector('#tray-combatants .chip').textContent.includes('Locomotive')`))
		kept(t)

		// At desktop size the board is on screen as the page opens; the
		// editor is looked at on a desktop and a phone
		// (FRAY_SCREENSHOTS=dir keeps the pictures).
		var draftURL string
		run(t, chromedp.Location(&draftURL))
		for _, size := range []struct {
			name string
			w, h int64
		}{{"desktop", 1440, 900}, {"phone", 390, 844}} {
			var top, height float64
			run(t, chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(draftURL), chromedp.WaitVisible(`#board-preview`, chromedp.ByQuery),
				chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
				chromedp.Evaluate(`document.querySelector('#board-preview').getBoundingClientRect().top`, &top),
				chromedp.Evaluate(`window.innerHeight`, &height))
			keepScreenshot(gm, "prep-editor-"+size.name)
			if size.name == "desktop" && top > height/2 {
				t.Fatalf("at %dx%d the board starts %.0f px down a %.0f px window", size.w, size.h, top, height)
			}
		}
	})
}
