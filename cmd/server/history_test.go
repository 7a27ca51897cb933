package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// page is a response read whole.
type page struct {
	code   int
	body   []byte
	header http.Header
}

// get requests path as u (nil: anonymous) without following redirects.
func (s *testServer) get(u *apiUser, path string) page {
	s.t.Helper()
	return s.send(u, "GET", path, "", "")
}

func (s *testServer) send(u *apiUser, method, path, contentType, body string) page {
	s.t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if u != nil {
		req.Header.Set("Authorization", "Bearer "+u.Token)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return page{code: resp.StatusCode, body: data, header: resp.Header}
}

// command submits a command over the HTTP API and returns the status and
// the error body, if any.
func (s *testServer) command(u *apiUser, id, cid string, cmd map[string]any) (int, errorReply) {
	s.t.Helper()
	raw, _ := json.Marshal(map[string]any{"id": cid, "command": cmd})
	p := s.send(u, "POST", "/api/encounters/"+id+"/commands", "application/json", string(raw))
	var e errorReply
	if p.code != 200 {
		_ = json.Unmarshal(p.body, &e)
	}
	return p.code, e
}

type errorReply struct{ Code, Message string }

// viewMap is a projection decoded generically, for comparing whole views.
func viewMap(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("view %s: %v", raw, err)
	}
	return m
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// step plays one turn for the current combatant: a move when it can, or
// the end of its turn.
func (s *testServer) step(u *apiUser, id, cid string) {
	s.t.Helper()
	v, _ := s.withUser(u).view(id, "")
	cmd := map[string]any{"kind": "end-turn", "actor": v.Current}
	var raw struct {
		Actions []struct {
			Kind, Actor string
			Fields      []struct {
				Name    string
				Options []struct{ Value string }
			}
		}
	}
	_, full := s.withUser(u).view(id, "")
	_ = json.Unmarshal(full, &raw)
	for _, a := range raw.Actions {
		if a.Kind == "move" && a.Actor == v.Current && len(a.Fields) == 1 && len(a.Fields[0].Options) > 0 {
			cmd = map[string]any{"kind": "move", "actor": v.Current, "to": a.Fields[0].Options[0].Value}
		}
	}
	if code, e := s.command(u, id, cid, cmd); code != 200 {
		s.t.Fatalf("%v: %d %+v", cmd, code, e)
	}
}

// TestRewindOverAPI: the GM undoes the last action; the state is exactly
// the one before it, every open page is told, the log keeps both the action
// and its undo; players may not rewind; the start cannot be undone, and
// undoing the end of a finished encounter reopens it.
func TestRewindOverAPI(t *testing.T) {
	base := startServer(t, testdb.URL(t))
	tb := base.newTable()
	id := tb.id
	if code, e := base.command(tb.gm, id, "start", map[string]any{"kind": "start"}); code != 200 {
		t.Fatalf("start: %d %+v", code, e)
	}
	// Right after the start there is nothing to undo.
	code, e := base.command(tb.gm, id, "u0", map[string]any{"kind": "rewind"})
	if code != 422 || !strings.Contains(e.Message, "start") {
		t.Fatalf("rewinding the start: %d %+v", code, e)
	}
	base.step(tb.gm, id, "s1")
	_, before := base.withUser(tb.gm).view(id, "")
	_, playerBefore := base.withUser(tb.player).view(id, "")
	base.step(tb.gm, id, "s2")
	_, changed := base.withUser(tb.gm).view(id, "")
	if bytes.Equal(changed, before) {
		t.Fatal("the step changed nothing")
	}

	ws := base.withUser(tb.player).dial(id, "html=1")
	ws.read()
	if code, e := base.command(tb.player, id, "p-undo", map[string]any{"kind": "rewind"}); code != 403 || e.Code != "forbidden" {
		t.Fatalf("a player's rewind: %d %+v", code, e)
	}
	if code, e := base.command(tb.gm, id, "undo", map[string]any{"kind": "rewind"}); code != 200 {
		t.Fatalf("rewind: %d %+v", code, e)
	}
	// The projection is the one from before the undone action, but for seq.
	after, afterRaw := base.withUser(tb.gm).view(id, "")
	b, a := viewMap(t, before), viewMap(t, afterRaw)
	if a["seq"].(float64) <= viewMap(t, changed)["seq"].(float64) {
		t.Fatalf("the rewind did not move seq on: %v", a["seq"])
	}
	delete(b, "seq")
	delete(a, "seq")
	if jsonOf(a) != jsonOf(b) {
		t.Fatalf("after the rewind:\n%s\nbefore the action:\n%s", jsonOf(a), jsonOf(b))
	}
	_, playerAfter := base.withUser(tb.player).view(id, "")
	pb, pa := viewMap(t, playerBefore), viewMap(t, playerAfter)
	delete(pb, "seq")
	delete(pa, "seq")
	if jsonOf(pa) != jsonOf(pb) {
		t.Fatal("the player's view after the rewind differs from before the action")
	}
	// The player's open page got the rewind with a re-rendered battlefield,
	// and the rewind's entry names what it undid.
	m, _ := ws.expect("events")
	if m.Seq != after.Seq || m.HTML["battlefield"] == "" || !strings.Contains(m.HTML["log"], `data-undone="`) {
		t.Fatalf("the player's page got %+v", m)
	}
	if strings.Contains(string(m.Events[0]), "snapshot") {
		t.Fatal("the player's rewind event carries the state snapshot")
	}

	// The log page shows the action, marked undone, and the undo.
	logPage := base.get(tb.gm, "/encounters/"+id+"/log")
	if logPage.code != 200 {
		t.Fatalf("log: %d", logPage.code)
	}
	html := string(logPage.body)
	undone := regexp.MustCompile(`<li id="ev-(\d+)" class="entry [^"]*undone`).FindAllStringSubmatch(html, -1)
	if len(undone) == 0 || !strings.Contains(html, "kind-encounter-rewound") || !strings.Contains(html, "The GM undoes the last action.") {
		t.Fatalf("the log does not show the undone action and its undo:\n%s", html)
	}
	var all struct {
		Events []struct {
			Seq     int64
			Command string
		}
	}
	base.withUser(tb.gm).do("GET", "/api/encounters/"+id+"/events", nil, &all)
	for _, u := range undone {
		for _, ev := range all.Events {
			if fmt.Sprint(ev.Seq) == u[1] && ev.Command != "s2" {
				t.Fatalf("event %d of command %q is marked undone", ev.Seq, ev.Command)
			}
		}
	}
	// A second undo takes back the first step; a third would pass the start.
	if code, e := base.command(tb.gm, id, "undo-2", map[string]any{"kind": "rewind"}); code != 200 {
		t.Fatalf("second rewind: %d %+v", code, e)
	}
	if code, e := base.command(tb.gm, id, "undo-3", map[string]any{"kind": "rewind", "steps": 1}); code != 422 || !strings.Contains(e.Message, "start") {
		t.Fatalf("rewinding past the start: %d %+v", code, e)
	}
	// The page's button without JavaScript: a form post to /act.
	base.step(tb.gm, id, "s2b")
	form := "application/x-www-form-urlencoded"
	if p := base.send(tb.gm, "POST", "/encounters/"+id+"/act", form, "kind=rewind"); p.code != 303 || flash(p.header, "error") != "" {
		t.Fatalf("undo by form: %d %s", p.code, p.header.Get("Location"))
	}
	if p := base.send(tb.gm, "POST", "/encounters/"+id+"/act", form, "kind=rewind"); !strings.Contains(flash(p.header, "error"), "start") {
		t.Fatalf("undoing the start by form: %d %s", p.code, p.header.Get("Location"))
	}
	// The GM's page offers the undo as a button.
	if p := base.get(tb.gm, "/encounters/"+id); !strings.Contains(string(p.body), `id="act-rewind-go"`) {
		t.Fatal("the GM's encounter page has no undo button")
	}
	if p := base.get(tb.player, "/encounters/"+id); strings.Contains(string(p.body), `act-rewind`) {
		t.Fatal("the player's encounter page has an undo button")
	}
	// Rewinding a finished encounter undoes its end: it runs again.
	base.step(tb.gm, id, "s3")
	if code, e := base.command(tb.gm, id, "end", map[string]any{"kind": "end"}); code != 200 {
		t.Fatalf("end: %d %+v", code, e)
	}
	if v, _ := base.withUser(tb.gm).view(id, ""); v.Status != "finished" {
		t.Fatalf("status %s after the end", v.Status)
	}
	if code, e := base.command(tb.player, id, "p-undo-end", map[string]any{"kind": "rewind"}); code != 403 {
		t.Fatalf("a player reopening: %d %+v", code, e)
	}
	if code, e := base.command(tb.gm, id, "undo-4", map[string]any{"kind": "rewind"}); code != 200 {
		t.Fatalf("reopening a finished encounter: %d %+v", code, e)
	}
	if v, _ := base.withUser(tb.gm).view(id, ""); v.Status != "running" {
		t.Fatalf("status %s after undoing the end", v.Status)
	}
}

// hiddenTable is the tomb corridor (with its hidden barrow wight) in a
// campaign with a GM and a player who owns Sister Ewa.
func hiddenTable(t *testing.T, srv *testServer) (gm, player *apiUser, campaign, id string) {
	gm, player = srv.signup("gamemaster"), srv.signup("player-one")
	g := srv.withUser(gm)
	ex, _ := prep.ExampleNamed("sw-zones-tomb-corridor")
	var created struct{ ID, Campaign string }
	if code := g.do("POST", "/api/encounters", ex.Data, &created); code != 201 {
		t.Fatalf("import: %d", code)
	}
	var inv struct{ URL string }
	g.do("POST", "/api/campaigns/"+created.Campaign+"/invites", nil, &inv)
	srv.withUser(player).do("POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil)
	g.do("PUT", "/api/campaigns/"+created.Campaign+"/characters/sister-ewa", map[string]string{"user": player.ID}, nil)
	return gm, player, created.Campaign, created.ID
}

// TestHistoryKeepsSecrets: a player's log page, replay, exports and
// timeline never show the hidden wight or its secret events — even after
// the fight — until the GM reveals an event; the GM's always do.
func TestHistoryKeepsSecrets(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm, player, campaign, id := hiddenTable(t, srv)
	g := srv.withUser(gm)
	if code, e := srv.command(gm, id, "start", map[string]any{"kind": "start"}); code != 200 {
		t.Fatalf("start: %d %+v", code, e)
	}
	for i := 0; i < 14; i++ {
		v, _ := g.view(id, "")
		if v.Current == "" {
			break
		}
		srv.command(gm, id, fmt.Sprint("t", i), map[string]any{"kind": "end-turn", "actor": v.Current})
	}
	var all struct {
		Seq    int64
		Events []struct {
			Seq    int64
			Secret bool
			Actor  string
		}
	}
	g.do("GET", "/api/encounters/"+id+"/events", nil, &all)
	var secret int64
	for _, ev := range all.Events {
		if ev.Secret && ev.Actor == "barrow-wight" && secret == 0 {
			secret = ev.Seq
		}
	}
	if secret == 0 {
		t.Fatal("the wight did nothing secret")
	}
	if code, e := srv.command(gm, id, "end", map[string]any{"kind": "end", "winner": "delvers"}); code != 200 {
		t.Fatalf("end: %d %+v", code, e)
	}

	hidden := [][]byte{[]byte("barrow-wight"), []byte("Barrow wight"), []byte("Grave claws")}
	e := "/encounters/" + id
	paths := []string{
		e + "/log", e + "/log?round=1", e + "/log?who=sister-ewa",
		e + "/replay", e + fmt.Sprintf("/replay?seq=%d", secret), e + fmt.Sprintf("/replay?seq=%d", secret-1), e + "/replay?seq=0",
		"/api" + e + fmt.Sprintf("/replay?seq=%d", secret), "/api" + e + "/export.json", e + "/export.md",
		"/campaigns/" + campaign + "/timeline",
	}
	check := func(reveal bool) {
		t.Helper()
		for _, path := range paths {
			pp, gp := srv.get(player, path), srv.get(gm, path)
			if pp.code != 200 || gp.code != 200 {
				t.Fatalf("%s: player %d, GM %d", path, pp.code, gp.code)
			}
			for _, h := range hidden {
				// Once revealed, the event shows in the log, the exports and
				// the replay of the steps after the reveal (the latest here).
				shown := reveal && (strings.Contains(path, "/log") || strings.Contains(path, "export") || path == e+"/replay")
				if bytes.Contains(pp.body, h) && !shown {
					i := bytes.Index(pp.body, h)
					t.Fatalf("%s shows the player %q: …%s…", path, h, pp.body[max(0, i-300):min(len(pp.body), i+100)])
				}
			}
			if !bytes.Contains(gp.body, hidden[1]) && !strings.Contains(path, "seq=0") && !strings.Contains(path, "who=") {
				t.Errorf("%s does not show the GM the wight", path)
			}
		}
	}
	check(false)
	// The player may not filter by the hidden character, nor learn it exists.
	if p, q := srv.get(player, e+"/log?who=barrow-wight"), srv.get(player, e+"/log?who=nobody"); p.code != 400 || string(p.body) != strings.ReplaceAll(string(q.body), "nobody", "barrow-wight") {
		t.Fatalf("filtering by the hidden wight: %d %s / %s", p.code, p.body, q.body)
	}
	// The JSON export: setup and initial state for the GM only.
	var pj, gj struct {
		Setup, Initial json.RawMessage
		Events         []struct{ Secret bool }
	}
	pe, ge := srv.get(player, "/api"+e+"/export.json"), srv.get(gm, "/api"+e+"/export.json")
	_ = json.Unmarshal(pe.body, &pj)
	_ = json.Unmarshal(ge.body, &gj)
	if pj.Setup != nil || pj.Initial != nil || gj.Setup == nil || gj.Initial == nil || len(gj.Events) <= len(pj.Events) {
		t.Fatalf("exports: player setup %d bytes, %d events; GM setup %d bytes, %d events", len(pj.Setup), len(pj.Events), len(gj.Setup), len(gj.Events))
	}
	if cd := ge.header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment; filename=fray-the-long-corridor") || !strings.HasSuffix(cd, ".json") {
		t.Fatalf("JSON export disposition %q", cd)
	}
	md := srv.get(player, e+"/export.md")
	if cd := md.header.Get("Content-Disposition"); !strings.HasSuffix(cd, ".md") || !strings.HasPrefix(md.header.Get("Content-Type"), "text/markdown") {
		t.Fatalf("Markdown export headers %v", md.header)
	}
	if !bytes.HasPrefix(md.body, []byte("# ")) || !bytes.Contains(md.body, []byte("### Round 1")) {
		t.Fatalf("Markdown report:\n%s", md.body)
	}

	// A player may not reveal; the GM reveals the wight's first secret event.
	form := "application/x-www-form-urlencoded"
	if p := srv.send(player, "POST", e+"/log/reveal", form, fmt.Sprintf("seq=%d", secret)); p.code != 403 {
		t.Fatalf("a player's reveal: %d", p.code)
	}
	if p := srv.get(player, e+"/log"); bytes.Contains(p.body, []byte(fmt.Sprintf(`id="ev-%d"`, secret))) {
		t.Fatal("the player's log shows the secret event before it is revealed")
	}
	p := srv.send(gm, "POST", e+"/log/reveal", form, fmt.Sprintf("seq=%d", secret))
	if loc := p.header.Get("Location"); p.code != 303 || !strings.Contains(flash(p.header, "notice"), "now visible") {
		t.Fatalf("reveal: %d %s", p.code, loc)
	}
	if p := srv.get(player, e+"/log"); !bytes.Contains(p.body, []byte(fmt.Sprintf(`id="ev-%d"`, secret))) {
		t.Fatal("the player's log does not show the revealed event")
	}
	// Revealing it again is refused with a clear message.
	p = srv.send(gm, "POST", e+"/log/reveal", form, fmt.Sprintf("seq=%d", secret))
	if msg := flash(p.header, "error"); !strings.Contains(msg, "already revealed") {
		t.Fatalf("second reveal: %s", msg)
	}
	// Only that event: the other secret events stay hidden.
	var pev struct {
		Events []struct {
			Seq    int64
			Actor  string
			Secret bool
		}
	}
	srv.withUser(player).do("GET", "/api"+e+"/export.json", nil, &pev)
	for _, ev := range pev.Events {
		if ev.Secret && ev.Seq != secret {
			t.Fatalf("the player's export has unrevealed secret event %d", ev.Seq)
		}
	}
	check(true)
}

// TestReplayMatchesTheLiveViews: the replay API at every seq a command
// reached shows exactly the projection the live API showed then; steps,
// bounds and the timeline.
func TestReplayMatchesTheLiveViews(t *testing.T) {
	base := startServer(t, testdb.URL(t))
	tb := base.newTable()
	id := tb.id
	type seen struct {
		seq          int64
		gm, playerAt []byte
	}
	var history []seen
	record := func() {
		v, g := base.withUser(tb.gm).view(id, "")
		_, p := base.withUser(tb.player).view(id, "")
		history = append(history, seen{v.Seq, g, p})
	}
	record()
	base.command(tb.gm, id, "start", map[string]any{"kind": "start"})
	record()
	for i := range 12 {
		base.step(tb.gm, id, fmt.Sprint("s", i))
		record()
		if i == 6 {
			base.command(tb.gm, id, "undo", map[string]any{"kind": "rewind"})
			record()
		}
	}
	strip := func(raw []byte) string {
		m := viewMap(t, raw)
		delete(m, "actions")
		delete(m, "pending")
		return jsonOf(m)
	}
	for _, h := range history {
		for who, u := range map[string]*apiUser{"GM": tb.gm, "player": tb.player} {
			var r struct {
				Seq, Latest, Prev, Next int64
				View                    json.RawMessage
			}
			if code := base.withUser(u).do("GET", fmt.Sprintf("/api/encounters/%s/replay?seq=%d", id, h.seq), nil, &r); code != 200 {
				t.Fatalf("replay %d: %d", h.seq, code)
			}
			want := h.gm
			if who == "player" {
				want = h.playerAt
			}
			if r.Seq != h.seq || strip(r.View) != strip(want) {
				t.Fatalf("%s's replay at %d:\n%s\nlive then:\n%s", who, h.seq, strip(r.View), strip(want))
			}
		}
	}
	last := history[len(history)-1].seq
	var r struct{ Seq, Prev, Next int64 }
	base.withUser(tb.gm).do("GET", fmt.Sprintf("/api/encounters/%s/replay?seq=%d", id, last+50), nil, &r)
	if r.Seq != last || r.Next != -1 || r.Prev != last-1 {
		t.Fatalf("replay past the end: %+v (last %d)", r, last)
	}
	base.withUser(tb.gm).do("GET", fmt.Sprintf("/api/encounters/%s/replay?seq=0", id), nil, &r)
	if r.Seq != 0 || r.Prev != -1 || r.Next != 1 {
		t.Fatalf("replay at 0: %+v", r)
	}
	if p := base.get(tb.gm, "/encounters/"+id+"/replay?seq=-1"); p.code != 400 {
		t.Fatalf("negative seq: %d", p.code)
	}
	page := base.get(tb.player, fmt.Sprintf("/encounters/%s/replay?seq=5", id))
	for _, want := range []string{`id="replay-prev"`, `id="replay-next"`, `href="/encounters/` + id + `/replay?seq=`, `id="battlefield"`, `data-replay`} {
		if !strings.Contains(string(page.body), want) {
			t.Fatalf("replay page lacks %s", want)
		}
	}
	if strings.Contains(string(page.body), `class="action"`) || strings.Contains(string(page.body), `/act"`) {
		t.Fatal("the replay page offers actions")
	}
	// The timeline lists the encounter with who won, for both.
	base.command(tb.gm, id, "end", map[string]any{"kind": "end", "winner": "posse", "summary": "The gang scatters."})
	for _, u := range []*apiUser{tb.gm, tb.player} {
		tl := base.get(u, "/campaigns/"+tb.campaign+"/timeline")
		if tl.code != 200 || !strings.Contains(string(tl.body), "The gang scatters.") || !strings.Contains(string(tl.body), "/encounters/"+id+"/log") {
			t.Fatalf("timeline: %d\n%s", tl.code, tl.body)
		}
	}
	stranger := base.signup("stranger")
	for _, path := range []string{"/campaigns/" + tb.campaign + "/timeline", "/encounters/" + id + "/log", "/encounters/" + id + "/replay", "/api/encounters/" + id + "/export.json", "/encounters/" + id + "/export.md"} {
		if p := base.get(stranger, path); p.code != 404 {
			t.Errorf("%s for a stranger: %d", path, p.code)
		}
		if p := base.get(nil, path); p.code != 401 && p.code != 303 {
			t.Errorf("%s anonymous: %d", path, p.code)
		}
	}
}
