package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestBrowserReplay steps through a finished encounter's replay in
// Chromium with the keyboard and the links, and sees the battlefield change
// with each move; every step has its own URL.
func TestBrowserReplay(t *testing.T) {
	base := startServer(t, testdb.URL(t))
	tb := base.newTable()
	id := tb.id
	if code, e := base.command(tb.gm, id, "start", map[string]any{"kind": "start"}); code != 200 {
		t.Fatalf("start: %d %+v", code, e)
	}
	for i := range 6 {
		base.step(tb.gm, id, fmt.Sprint("s", i))
	}
	if code, e := base.command(tb.gm, id, "end", map[string]any{"kind": "end", "winner": "posse"}); code != 200 {
		t.Fatalf("end: %d %+v", code, e)
	}
	var log struct {
		Seq    int64
		Events []struct {
			Seq  int64
			Kind string
		}
	}
	base.withUser(tb.gm).do("GET", "/api/encounters/"+id+"/events", nil, &log)
	var moved int64
	for _, ev := range log.Events {
		if ev.Kind == "moved" {
			moved = ev.Seq
			break
		}
	}
	if moved == 0 {
		t.Fatal("nobody moved")
	}

	ctx := tab(t, newBrowser(t))
	login(t, ctx, base.URL, tb.gm.Name)
	replay := base.URL + "/encounters/" + id + "/replay"
	// at waits for the replay of step seq (the page navigates: a query
	// survives that, a script evaluation would not) and checks its URL.
	at := func(seq int64) chromedp.Action {
		return chromedp.ActionFunc(func(ctx context.Context) error {
			if err := chromedp.WaitVisible(fmt.Sprintf(`#replay[data-seq="%d"]`, seq), chromedp.ByQuery).Do(ctx); err != nil {
				return err
			}
			var loc string
			if err := chromedp.Location(&loc).Do(ctx); err != nil {
				return err
			}
			if !strings.HasSuffix(loc, fmt.Sprintf("seq=%d", seq)) {
				return fmt.Errorf("step %d is at %s", seq, loc)
			}
			return nil
		})
	}
	var field, before, after, step string
	read := func(into *string) chromedp.Action {
		return chromedp.OuterHTML("#battlefield", into, chromedp.ByID)
	}

	// The move's step, then one step back with ←: the battlefield differs.
	steps(t, ctx, chromedp.Navigate(fmt.Sprintf("%s?seq=%d", replay, moved)), at(moved), read(&after),
		chromedp.Text("#replay-step", &step, chromedp.ByID))
	if !strings.Contains(step, fmt.Sprintf("Event %d of %d", moved, log.Seq)) {
		t.Fatalf("step label %q", step)
	}
	steps(t, ctx, chromedp.KeyEvent(kb.ArrowLeft), at(moved-1), read(&before))
	if before == after {
		t.Fatal("the battlefield before the move looks the same as after it")
	}
	// → goes forward again to the same picture.
	steps(t, ctx, chromedp.KeyEvent(kb.ArrowRight), at(moved), read(&field))
	if field != after {
		t.Fatal("stepping back and forth does not show the same battlefield")
	}
	// Home: the setup; End: the finished encounter.
	steps(t, ctx, chromedp.KeyEvent(kb.Home), at(0), read(&field),
		chromedp.Text("#replay-step", &step, chromedp.ByID))
	if step != "Before the first event" {
		t.Fatalf("at the start the step reads %q", step)
	}
	steps(t, ctx, chromedp.KeyEvent(kb.End), at(log.Seq))
	var status string
	steps(t, ctx, chromedp.Text("#status", &status, chromedp.ByID))
	if !strings.Contains(status, "Finished") {
		t.Fatalf("the last step's status reads %q", status)
	}
	// The links do the same as the keys.
	steps(t, ctx, chromedp.Click("#replay-prev", chromedp.ByID), at(log.Seq-1))
	steps(t, ctx, chromedp.Click("#replay-first", chromedp.ByID), at(0))
	steps(t, ctx, chromedp.Click("#replay-next", chromedp.ByID), at(1))
	steps(t, ctx, chromedp.KeyEvent(kb.Home), at(0))
	// At the ends, the disabled links are not links and the keys do nothing.
	var disabled int
	steps(t, ctx, chromedp.Evaluate(`document.querySelectorAll('span#replay-prev[aria-disabled], span#replay-first[aria-disabled]').length`, &disabled))
	if disabled != 2 {
		t.Fatalf("at the start %d of Previous and First are disabled", disabled)
	}
	steps(t, ctx, chromedp.KeyEvent(kb.ArrowLeft), chromedp.Sleep(300*time.Millisecond), at(0))
	// The log links each entry to its step.
	steps(t, ctx, chromedp.Navigate(base.URL+"/encounters/"+id+"/log"),
		chromedp.WaitVisible(fmt.Sprintf(`#ev-%d`, moved), chromedp.ByQuery),
		chromedp.Click(fmt.Sprintf(`#ev-%d .replay-link`, moved), chromedp.ByQuery), at(moved), read(&field))
	if field != after {
		t.Fatal("the log's replay link shows another battlefield")
	}
}

// TestBrowserUndo: the GM undoes a move with the encounter page's button;
// the player's open page updates live: the battlefield is back as it was,
// and the log keeps the move, marked undone, and the undo.
func TestBrowserUndo(t *testing.T) {
	base := startServer(t, testdb.URL(t))
	tb := base.newTable()
	id := tb.id
	if code, e := base.command(tb.gm, id, "start", map[string]any{"kind": "start"}); code != 200 {
		t.Fatalf("start: %d %+v", code, e)
	}
	gm, player := tab(t, newBrowser(t)), tab(t, newBrowser(t))
	login(t, gm, base.URL, tb.gm.Name)
	login(t, player, base.URL, tb.player.Name)
	live := chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang()))
	steps(t, gm, chromedp.Navigate(base.URL+"/encounters/"+id), chromedp.WaitVisible("#act-rewind-open", chromedp.ByID), live)
	steps(t, player, chromedp.Navigate(base.URL+"/encounters/"+id), chromedp.WaitVisible("#log", chromedp.ByID), live)
	var before, moved, after string
	steps(t, player, chromedp.OuterHTML("#battlefield", &before, chromedp.ByID))

	// Move whoever's turn it is until someone actually moves.
	var moveSeq int64
	for i := 0; moveSeq == 0 && i < 6; i++ {
		v, _ := base.withUser(tb.gm).view(id, "")
		base.step(tb.gm, id, fmt.Sprint("s", i))
		var evs struct {
			Seq    int64
			Events []struct {
				Seq  int64
				Kind string
			}
		}
		base.withUser(tb.gm).do("GET", fmt.Sprintf("/api/encounters/%s/events?since=%d", id, v.Seq), nil, &evs)
		for _, ev := range evs.Events {
			if ev.Kind == "moved" {
				moveSeq = ev.Seq
			}
		}
		if moveSeq == 0 { // only turns passed: that is the "before" now
			steps(t, player, chromedp.Poll(fmt.Sprintf(`!!document.getElementById('ev-%d')`, evs.Seq), nil, chromedp.WithPollingTimeout(patience.Hang())),
				chromedp.OuterHTML("#battlefield", &before, chromedp.ByID))
		}
	}
	if moveSeq == 0 {
		t.Fatal("nobody could move")
	}
	steps(t, player, chromedp.Poll(fmt.Sprintf(`!!document.getElementById('ev-%d')`, moveSeq), nil, chromedp.WithPollingTimeout(patience.Hang())),
		chromedp.OuterHTML("#battlefield", &moved, chromedp.ByID))
	if moved == before {
		t.Fatal("the move did not change the player's battlefield")
	}
	// The GM clicks "Undo last action…", then confirms.
	steps(t, gm, chromedp.Click("#act-rewind-open", chromedp.ByID), chromedp.Click("#act-rewind-go", chromedp.ByID), logHas("The GM undoes the last action."))
	steps(t, player, logHas("The GM undoes the last action."),
		chromedp.Poll(fmt.Sprintf(`document.getElementById('ev-%d').classList.contains('undone') && !!document.querySelector('#ev-%d .undone-badge')`, moveSeq, moveSeq), nil,
			chromedp.WithPollingTimeout(patience.Hang())),
		chromedp.OuterHTML("#battlefield", &after, chromedp.ByID))
	if after != before {
		t.Fatalf("after the undo the player's battlefield is\n%s\nnot as before the move:\n%s", after, before)
	}
	// A reload renders the same marks on the server.
	steps(t, player, chromedp.Reload(), chromedp.WaitVisible(fmt.Sprintf(`#ev-%d.undone`, moveSeq), chromedp.ByQuery))
}
