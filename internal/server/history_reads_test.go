package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/accounts"
	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/campaigns"
	"github.com/fray-vtt/fray/internal/carry"
	"github.com/fray-vtt/fray/internal/characters"
	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/history"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/realtime"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// stack is a Server over a real database, wired as cmd/server wires it,
// whose database traffic goes through a proxy that counts statements.
type stack struct {
	srv   *Server
	table *play.Service
	proxy *testdb.Proxy
	db    *store.DB // through the proxy: the server's
	setup *store.DB // direct: the test's own writes, not counted
	rules *engine.Registry
}

func newStack(t *testing.T) *stack {
	t.Helper()
	ctx := context.Background()
	url := testdb.URL(t)
	proxy := testdb.NewProxy(t, url)
	db, err := store.Open(ctx, proxy.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	setup, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(setup.Close)
	rules := engine.NewRegistry(enginetest.Toy{})
	hub := realtime.NewHub(realtime.Config{Events: db})
	table := play.New(play.Config{Store: db, Rulesets: rules, Publisher: hub})
	t.Cleanup(table.Close)
	acc := accounts.New(db, accounts.Limits{Every: -1})
	camps := campaigns.New(db)
	prepare := prep.NewService(db, rules)
	srv := New(Config{
		Accounts: acc, Tokens: acc, Access: db, Campaigns: camps, Invites: camps, Members: camps,
		Encounters: prepare, Drafts: prepare, StatBlocks: prepare,
		Characters: characters.New(db, rules), Carry: carry.New(db, rules), Deadlines: &deadlines.Service{Store: db}, Standing: db, ActLog: db,
		History: history.New(db, rules), Table: table, Events: db, Hub: hub, Health: db, Rulesets: rules,
	})
	return &stack{srv: srv, table: table, proxy: proxy, db: db, setup: setup, rules: rules}
}

// user signs up a user directly in the database and returns their id and
// a session cookie.
func (st *stack) user(t *testing.T, name string) (string, *http.Cookie) {
	t.Helper()
	ctx := context.Background()
	u, err := st.setup.CreateUser(ctx, name, "not a real hash")
	if err != nil {
		t.Fatal(err)
	}
	token, hash := auth.NewToken("")
	if err := st.setup.CreateSession(ctx, u.ID, hash, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	return u.ID, &http.Cookie{Name: sessionCookie, Value: token}
}

// endedEncounters adds n toy encounters to campaignID, plays each from
// start to end on a play service of its own (closed after, so none stays
// loaded) and returns their ids.
func (st *stack) endedEncounters(t *testing.T, campaignID string, n int) []string {
	t.Helper()
	ctx := context.Background()
	players := play.New(play.Config{Store: st.setup, Rulesets: st.rules, Publisher: play.PublisherFunc(func(play.Update) {})})
	defer players.Close()
	data, _ := json.Marshal(enginetest.Setup())
	gm := play.Sender{Viewer: engine.GMViewer()}
	ids := make([]string, n)
	for i := range ids {
		e, err := prep.Import(ctx, st.setup, st.rules, campaignID, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range []string{engine.KindStart, engine.KindEnd} {
			if _, err := players.Submit(ctx, e.ID, gm, kind+"-"+e.ID, engine.NewCommand(kind, "", nil)); err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
		}
		ids[i] = e.ID
	}
	return ids
}

// get requests path with cookie and returns the status, the body and how
// many statements the server ran for it.
func (st *stack) get(t *testing.T, path string, cookie *http.Cookie) (int, string, int64) {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	r.Header.Set("Accept", "text/html")
	r.AddCookie(cookie)
	w := httptest.NewRecorder()
	before := st.proxy.Statements()
	st.srv.ServeHTTP(w, r)
	ran := st.proxy.Statements() - before
	body, _ := io.ReadAll(w.Result().Body)
	return w.Code, string(body), ran
}

// TestTimelineLoadsNoEncounter: the timeline of a campaign with a hundred
// ended encounters is read from the stored snapshots and events — no live
// encounter is loaded for it — in as many statements as the timeline of a
// campaign with one.
func TestTimelineLoadsNoEncounter(t *testing.T) {
	st := newStack(t)
	ctx := context.Background()
	gm, cookie := st.user(t, "gm")
	small, err := st.setup.CreateCampaignFor(ctx, "Small", gm)
	if err != nil {
		t.Fatal(err)
	}
	large, err := st.setup.CreateCampaignFor(ctx, "Large", gm)
	if err != nil {
		t.Fatal(err)
	}
	st.endedEncounters(t, small.ID, 1)
	ids := st.endedEncounters(t, large.ID, 100)

	code, _, one := st.get(t, "/campaigns/"+small.ID+"/timeline", cookie)
	if code != http.StatusOK {
		t.Fatalf("the small campaign's timeline: %d", code)
	}
	code, body, hundred := st.get(t, "/campaigns/"+large.ID+"/timeline", cookie)
	if code != http.StatusOK {
		t.Fatalf("the large campaign's timeline: %d", code)
	}
	for _, id := range ids {
		if !strings.Contains(body, "/encounters/"+id+"/log") {
			t.Fatalf("encounter %s is not on the timeline", id)
		}
	}
	if n := strings.Count(body, "No winner"); n != 100 {
		t.Errorf("%d encounters show their outcome, want 100", n)
	}
	if hundred != one || one == 0 {
		t.Errorf("the timeline ran %d statements for a hundred encounters and %d for one, want the same", hundred, one)
	}
	if n := st.table.Loaded(); n != 0 {
		t.Errorf("reading the timeline loaded %d encounters live", n)
	}
}

// TestHistoryPagesLoadNoEncounter: an encounter's log, replay and exports
// are read from the store too, in a fixed number of statements.
func TestHistoryPagesLoadNoEncounter(t *testing.T) {
	st := newStack(t)
	ctx := context.Background()
	gm, cookie := st.user(t, "gm")
	c, err := st.setup.CreateCampaignFor(ctx, "Campaign", gm)
	if err != nil {
		t.Fatal(err)
	}
	id := st.endedEncounters(t, c.ID, 1)[0]
	for _, page := range []string{"/log", "/replay", "/replay?seq=1", "/export.md"} {
		code, body, ran := st.get(t, "/encounters/"+id+page, cookie)
		if code != http.StatusOK {
			t.Fatalf("%s: %d\n%s", page, code, body)
		}
		if ran > 8 {
			t.Errorf("%s ran %d statements", page, ran)
		}
	}
	if code, _, _ := st.get(t, "/api/encounters/"+id+"/export.json", cookie); code != http.StatusOK {
		t.Fatalf("export.json: %d", code)
	}
	if n := st.table.Loaded(); n != 0 {
		t.Errorf("reading an encounter's history loaded %d encounters live", n)
	}
	// The table does load it.
	if code, _, _ := st.get(t, "/encounters/"+id, cookie); code != http.StatusOK || st.table.Loaded() != 1 {
		t.Fatalf("the encounter page: %d, %d loaded", code, st.table.Loaded())
	}
}
