package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpfetch "github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/chromium"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/simulate"
	"github.com/fray-vtt/fray/internal/testdb"
)

// oddsDraft imports the table's encounter's setup as a draft and returns
// the draft's path.
func (s *testServer) oddsDraft(tb table) string {
	s.t.Helper()
	setup := s.prepReq(tb.gm, "GET", "/encounters/"+tb.id+"/setup.json", "", nil)
	imp := s.upload(tb.gm, "/campaigns/"+tb.campaign+"/drafts/import", setup.body)
	if imp.code != http.StatusSeeOther || !strings.HasPrefix(imp.location, "/drafts/") {
		s.t.Fatalf("import: %d %s", imp.code, imp.body)
	}
	return "/drafts/" + strings.SplitN(strings.TrimPrefix(imp.location, "/drafts/"), "?", 2)[0]
}

// tableRows counts the rows of the tables that hold encounters.
func tableRows(t *testing.T, dbURL string) map[string]int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	out := map[string]int{}
	for _, table := range []string{"encounters", "events", "snapshots", "commands", "drafts"} {
		var n int
		if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}

type oddsReply struct {
	Problem    string           `json:"problem"`
	Elsewhere  bool             `json:"elsewhere"`
	Simulation *simulate.Status `json:"simulation"`
}

// TestDraftOdds: the GM simulates a draft over the JSON API and as the
// page does: it runs in the background with its progress shown, one at a
// time in the campaign, can be cancelled, ends with a result, and never
// touches the encounter tables. Players cannot, bad input is refused.
func TestDraftOdds(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startServer(t, dbURL)
	tb := srv.newTable()
	draft := srv.oddsDraft(tb)
	gm := srv.withUser(tb.gm)
	before := tableRows(t, dbURL)

	var r oddsReply
	if code := gm.do("GET", "/api"+draft+"/odds", nil, &r); code != http.StatusOK || r.Simulation != nil || r.Problem != "" {
		t.Fatalf("before: %d %+v", code, r)
	}
	// A long one, cancelled: what was played is kept.
	if code := gm.do("POST", "/api"+draft+"/odds", map[string]any{"runs": simulate.MaxRuns, "seed": 11}, &r); code != http.StatusAccepted || r.Simulation == nil || !r.Simulation.Active() {
		t.Fatalf("start: %d %+v", code, r)
	}
	if code := gm.do("POST", "/api"+draft+"/odds", map[string]any{"runs": 10}, nil); code != http.StatusConflict {
		t.Errorf("a second simulation in the campaign: %d", code)
	}
	waitOdds(t, gm, draft, func(s *simulate.Status) bool { return s.Done > 0 })
	if code := gm.do("POST", "/api"+draft+"/odds/cancel", nil, &r); code != http.StatusOK {
		t.Fatalf("cancel: %d", code)
	}
	s := waitOdds(t, gm, draft, func(s *simulate.Status) bool { return !s.Active() })
	if s.Result == nil || s.Result.Stopped != "cancelled" || s.Result.Runs == 0 || s.Result.Runs == simulate.MaxRuns {
		t.Fatalf("cancelled: %+v", s)
	}

	// As htmx does: the form's post answered with the section.
	req, _ := http.NewRequest("POST", srv.URL+draft+"/odds", strings.NewReader(url.Values{"runs": {"20"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+tb.gm.Token)
	req.Header.Set("HX-Request", "true")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("fragment post: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s = waitOdds(t, gm, draft, func(s *simulate.Status) bool { return !s.Active() })
	if s.State != simulate.Finished || s.Result == nil || s.Result.Runs != 20 || s.Result.Stopped != "" || len(s.Result.Sides) != 2 {
		t.Fatalf("finished: %+v", s)
	}
	section := srv.prepReq(tb.gm, "GET", draft+"/odds", "", nil)
	length := html.EscapeString(s.Result.Length.String())
	for _, want := range []string{`id="odds"`, `id="odds-sides"`, "95 % interval", "over 20 fights", `id="simulate"`,
		length, "seconds for each player character&#39;s turn"} {
		if !strings.Contains(string(section.body), want) {
			t.Errorf("the section lacks %q:\n%s", want, section.body)
		}
	}
	if strings.Contains(string(section.body), "hx-trigger") {
		t.Error("a finished simulation keeps polling")
	}
	// The example picker shows each shipped example's length, the
	// figure TestExampleLengths holds to the engine's own odds.
	campaign := string(srv.prepReq(tb.gm, "GET", "/campaigns/"+tb.campaign, "", nil).body)
	exs, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exs {
		want := html.EscapeString(simulate.LengthOf(ex.Rounds, ex.Players, ex.Others).String())
		if ex.Rounds == 0 || !strings.Contains(campaign, want) {
			t.Errorf("the example picker does not show %s's length %q", ex.Name, want)
		}
	}
	page := srv.prepReq(tb.gm, "GET", draft, "", nil)
	if !strings.Contains(string(page.body), `id="odds-sides"`) {
		t.Error("the draft's page does not show the odds")
	}
	// A plain form post (no script) comes back to the draft's page.
	if r := srv.prepForm(tb.gm, draft+"/odds", url.Values{"runs": {"5"}}); r.code != http.StatusSeeOther || !strings.HasSuffix(r.location, "#odds") {
		t.Errorf("form post: %d %s", r.code, r.location)
	}
	waitOdds(t, gm, draft, func(s *simulate.Status) bool { return !s.Active() })

	// Refusals: a player, bad numbers, a draft that cannot be played.
	if code := srv.withUser(tb.player).do("POST", "/api"+draft+"/odds", map[string]any{"runs": 5}, nil); code != http.StatusForbidden && code != http.StatusNotFound {
		t.Errorf("a player simulates: %d", code)
	}
	if code := srv.withUser(tb.player).do("GET", "/api"+draft+"/odds", nil, nil); code != http.StatusForbidden && code != http.StatusNotFound {
		t.Errorf("a player reads the odds: %d", code)
	}
	for _, body := range []string{`{"runs": 0.5}`, `{"runs": 100000}`, `{"runs": -3}`, `{"fights": 3}`, `[`} {
		if code := gm.do("POST", "/api"+draft+"/odds", []byte(body), nil); code != http.StatusBadRequest {
			t.Errorf("%s: %d", body, code)
		}
	}
	if r := srv.prepForm(tb.gm, draft+"/odds", url.Values{"runs": {"many"}}); r.code != http.StatusSeeOther {
		t.Errorf("runs=many: %d", r.code)
	}
	if code := gm.do("POST", "/api/drafts/nope/odds", nil, nil); code != http.StatusNotFound {
		t.Errorf("no such draft: %d", code)
	}
	blank := srv.prepForm(tb.gm, "/campaigns/"+tb.campaign+"/drafts", url.Values{"ruleset": {"sw-zones"}, "name": {"Empty"}})
	if blank.code != http.StatusSeeOther {
		t.Fatalf("new draft: %d", blank.code)
	}
	if code := gm.do("GET", "/api"+blank.location+"/odds", nil, &r); code != http.StatusOK || r.Problem == "" {
		t.Errorf("an empty draft: %d %+v", code, r)
	}
	if code := gm.do("POST", "/api"+blank.location+"/odds", nil, nil); code != http.StatusUnprocessableEntity {
		t.Errorf("simulating an empty draft: %d", code)
	}
	if after := tableRows(t, dbURL); after["encounters"] != before["encounters"] || after["events"] != before["events"] ||
		after["snapshots"] != before["snapshots"] || after["commands"] != before["commands"] || after["drafts"] != before["drafts"]+1 {
		t.Errorf("tables before %v, after %v", before, after)
	}
}

// waitOdds polls the draft's odds until done holds.
func waitOdds(t *testing.T, gm *testServer, draft string, done func(*simulate.Status) bool) simulate.Status {
	t.Helper()
	deadline := patience.Deadline()
	for {
		var r oddsReply
		if code := gm.do("GET", "/api"+draft+"/odds", nil, &r); code != http.StatusOK || r.Simulation == nil {
			t.Fatalf("odds: %d %+v", code, r)
		}
		if done(r.Simulation) {
			return *r.Simulation
		}
		if time.Now().After(deadline) {
			raw, _ := json.Marshal(r)
			t.Fatalf("timed out: %s", raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestBrowserOdds: on a draft's page the GM presses Simulate; the section
// shows the progress and then the result without the page reloading, and
// focus goes from Simulate to Cancel and back as the buttons change.
func TestBrowserOdds(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	draft := srv.oddsDraft(tb)
	ctx := tab(t, newBrowser(t))
	login(t, ctx, srv.URL, tb.gm.Name)
	var rows int
	steps(t, ctx, chromedp.Navigate(srv.URL+draft), chromedp.WaitVisible(`#simulate`, chromedp.ByQuery),
		chromedp.Evaluate(`window.stillHere = true; window.focused = []; document.addEventListener('focusin', (e) => window.focused.push(e.target.id))`, nil),
		setValue("odds-runs", "100"),
		chromedp.Click(`#simulate`, chromedp.ByQuery),
		chromedp.WaitVisible(`#odds-sides`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('#odds-sides tbody tr').length`, &rows))
	var still bool
	var caption, focused string
	steps(t, ctx, chromedp.Evaluate(`window.stillHere === true`, &still), chromedp.Text(`#odds-sides caption`, &caption, chromedp.ByQuery),
		chromedp.Evaluate(`window.focused.join(' ') + ' / ' + document.activeElement.id`, &focused))
	if !still {
		t.Error("the page reloaded")
	}
	if focused != "simulate odds-cancel simulate / simulate" {
		t.Errorf("focus went: %s", focused)
	}
	if rows != 3 || !strings.Contains(caption, "100 fights") {
		t.Errorf("%d rows, caption %q", rows, caption)
	}
	keepSection(ctx, "odds-desktop")
	// A failure answered with the section (a 5xx) shows in it too.
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*cdpfetch.EventRequestPaused); ok {
			failed := `<section id="odds"><p class="flash error" id="odds-error">Something went wrong.</p><button id="simulate">Simulate</button></section>`
			go chromedp.Run(ctx, cdpfetch.FulfillRequest(e.RequestID, http.StatusInternalServerError).
				WithResponseHeaders([]*cdpfetch.HeaderEntry{{Name: "Content-Type", Value: "text/html"}}).
				WithBody(base64.StdEncoding.EncodeToString([]byte(failed))))
		}
	})
	steps(t, ctx, cdpfetch.Enable().WithPatterns([]*cdpfetch.RequestPattern{{URLPattern: "*" + draft + "/odds"}}),
		chromedp.Click(`#simulate`, chromedp.ByQuery), chromedp.WaitVisible(`#odds-error`, chromedp.ByQuery), cdpfetch.Disable())
	// The section, result and all, passes axe-core.
	var violations []string
	steps(t, ctx, chromium.Axe("#odds", &violations))
	for _, v := range violations {
		t.Error(v)
	}

	// On a phone the result fits the screen: nothing wider than the page
	phone := tab(t, newPhone(t))
	login(t, phone, srv.URL, tb.gm.Name)
	var overflow []string
	steps(t, phone, chromedp.Navigate(srv.URL+draft), chromedp.WaitVisible(`#odds-sides`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll('#odds, #odds *')].filter(e =>
  e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className)`, &overflow))
	if len(overflow) > 0 {
		t.Errorf("wider than the phone's screen: %v", overflow)
	}
	// ... and a rate keeps its per cent sign on its line.
	var broken []string
	steps(t, phone, chromedp.Evaluate(`[...document.querySelectorAll('#odds td:has(meter)')].filter(td =>
  [...td.childNodes].some(n => {
    if (n.nodeType !== Node.TEXT_NODE || !n.textContent.includes('%')) return false
    const r = document.createRange(); r.selectNodeContents(n); return r.getClientRects().length > 1
  })).map(td => td.textContent.trim())`, &broken))
	if len(broken) > 0 {
		t.Errorf("rates broken over two lines: %q", broken)
	}
	keepSection(phone, "odds-phone")

	// The example picker, with each example's length, fits a phone too.
	steps(t, phone, chromedp.Navigate(srv.URL+"/campaigns/"+tb.campaign), chromedp.WaitVisible(`#example-select`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll('#example-form, #example-form *')].filter(e =>
  e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className)`, &overflow))
	if len(overflow) > 0 {
		t.Errorf("the example picker is wider than the phone's screen: %v", overflow)
	}
	steps(t, phone, chromedp.Evaluate(`document.getElementById('example-form').scrollIntoView()`, nil))
	keepScreenshot(phone, "campaign-examples-phone")
}

// keepSection saves a picture of the odds section, as keepScreenshot
// does the window.
func keepSection(ctx context.Context, name string) {
	dir := os.Getenv("FRAY_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.ScrollIntoView(`#odds`, chromedp.ByQuery), chromedp.Screenshot(`#odds`, &png, chromedp.ByQuery)); err == nil {
		_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
}
