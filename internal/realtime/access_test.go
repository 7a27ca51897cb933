package realtime

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/play"
)

// grantBook is each test user's current grant, how often it was read, and
// how many times it was asked (one Regrant: several users at once).
type grantBook struct {
	mu     sync.Mutex
	grants map[string]Grant
	errs   map[string]error
	reads  map[string]*atomic.Int32
	asked  atomic.Int32
}

// bookGrantee is a session's user granted from a grantBook.
type bookGrantee struct {
	book *grantBook
	user string
}

func (g bookGrantee) Regrant(_ context.Context, all []Grantee) []Regranted {
	g.book.asked.Add(1)
	g.book.mu.Lock()
	defer g.book.mu.Unlock()
	out := make([]Regranted, len(all))
	for i, each := range all {
		u := each.(bookGrantee).user
		g.book.reads[u].Add(1)
		out[i] = Regranted{g.book.grants[u], g.book.errs[u]}
	}
	return out
}

func (b *grantBook) set(user string, g Grant, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.grants[user], b.errs[user] = g, err
}

// accessHub serves encounter "e" of campaign "c" to users named by the
// ?user= of each connection, each granted from book at version 1.
func accessHub(t *testing.T, users ...string) (*Hub, *grantBook, string) {
	t.Helper()
	st := &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1}
	enc := fixedEncounter{st: st}
	hub := NewHub(Config{Events: enc})
	book := &grantBook{grants: map[string]Grant{}, errs: map[string]error{}, reads: map[string]*atomic.Int32{}}
	for _, u := range users {
		book.grants[u] = Grant{Viewer: engine.PlayerViewer(u + "-pc"), Access: 1}
		book.reads[u] = &atomic.Int32{}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := r.URL.Query().Get("user")
		g := book.grants[u]
		hub.Serve(w, r, ServeOptions{Encounter: "e", Table: enc, Viewer: g.Viewer, Since: -1,
			Campaign: "c", User: u, Access: g.Access, Expires: g.Expires, Grantee: bookGrantee{book, u}})
	}))
	t.Cleanup(func() { hub.Close(); srv.Close() })
	return hub, book, "ws" + strings.TrimPrefix(srv.URL, "http")
}

func dialAs(t *testing.T, hub *Hub, url, user string) *websocket.Conn {
	t.Helper()
	before := hub.Count("e")
	c := dialSnapshot(t, context.Background(), url+"?user="+user)
	// The hub counts a client before it sends its snapshot.
	if hub.Count("e") <= before {
		t.Fatalf("%s's session is not counted after its snapshot", user)
	}
	return c
}

// closedWith reads until the connection ends and fails the test unless it
// closed with want.
func closedWith(t *testing.T, c *websocket.Conn, want websocket.StatusCode) {
	t.Helper()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				t.Fatal("not closed")
			}
			if code := websocket.CloseStatus(err); code != want {
				t.Fatalf("closed with %d, want %d", code, want)
			}
			return
		}
		var m struct{ Type string }
		_ = json.Unmarshal(data, &m)
		if m.Type == "events" {
			t.Fatalf("events after access ended: %s", data)
		}
	}
}

// A change for one user re-authorises only that user's sockets (closing
// them with the code that says why); the others move to the new version
// without a database read, unless they missed a version.
func TestAccessChangedRoutesAndCloses(t *testing.T) {
	hub, book, url := accessHub(t, "ann", "bob", "cid", "dee")
	ann, bob, cid, dee := dialAs(t, hub, url, "ann"), dialAs(t, hub, url, "bob"), dialAs(t, hub, url, "cid"), dialAs(t, hub, url, "dee")

	// ann is signed out: closed 4401; nobody else is read.
	book.set("ann", Grant{}, fray.Errorf(fray.EUNAUTHORIZED, "signed out"))
	hub.AccessChanged("c", "ann", 2)
	closedWith(t, ann, CloseSignedOut)
	for _, u := range []string{"bob", "cid", "dee"} {
		if n := book.reads[u].Load(); n != 0 {
			t.Fatalf("%s was read %d times for ann's change", u, n)
		}
	}
	// Another campaign's change concerns nobody here.
	hub.AccessChanged("other", "bob", 7)
	// cid loses their character: closed 4409. dee is removed: 4403.
	book.set("cid", Grant{Viewer: engine.PlayerViewer(), Access: 3}, nil)
	hub.AccessChanged("c", "cid", 3)
	closedWith(t, cid, CloseAccessChanged)
	book.set("dee", Grant{}, fray.Errorf(fray.ENOTFOUND, "no such encounter"))
	hub.AccessChanged("c", "dee", 4)
	closedWith(t, dee, CloseAccessRevoked)
	if n := book.reads["bob"].Load(); n != 0 {
		t.Fatalf("bob was read %d times for others' changes", n)
	}
	// bob missed version 5 (a lost notification): at 6 he is checked, and stays.
	book.set("bob", Grant{Viewer: engine.PlayerViewer("bob-pc"), Access: 6}, nil)
	hub.AccessChanged("c", "someone", 6)
	if n := book.reads["bob"].Load(); n != 1 {
		t.Fatalf("bob, who missed a version, was read %d times", n)
	}
	if hub.Count("e") != 1 {
		t.Fatalf("%d clients left, want bob", hub.Count("e"))
	}
	// A database that cannot say closes with 1013 (try again later).
	book.set("bob", Grant{}, fray.Errorf(fray.EUNAVAILABLE, "down"))
	hub.RecheckAll()
	closedWith(t, bob, websocket.StatusTryAgainLater)
}

// An update committed at a newer access version than a socket's is sent to
// it only after it was authorised again; one whose access ended gets
// nothing and is closed.
func TestPublishChecksStaleSockets(t *testing.T) {
	hub, book, url := accessHub(t, "ann", "bob")
	ann, bob := dialAs(t, hub, url, "ann"), dialAs(t, hub, url, "bob")
	st := &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1, Seq: 1}
	book.set("ann", Grant{}, fray.Errorf(fray.ENOTFOUND, "no such encounter"))
	book.set("bob", Grant{Viewer: engine.PlayerViewer("bob-pc"), Access: 2}, nil)
	hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: 1, Access: 2,
		Events: []engine.Event{{Seq: 1, Kind: "tick"}}})
	hub.settle("e")
	closedWith(t, ann, CloseAccessRevoked)
	if n := book.asked.Load(); n != 1 {
		t.Fatalf("the encounter's two sockets were checked in %d queries, not one", n)
	}
	_, data, err := bob.Read(context.Background())
	if err != nil || !strings.Contains(string(data), `"tick"`) {
		t.Fatalf("bob: %s %v", data, err)
	}
	// At the same version, nobody is read again.
	before := book.reads["bob"].Load()
	st.Seq = 2
	hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: 2, Access: 2,
		Events: []engine.Event{{Seq: 2, Kind: "tock"}}})
	hub.settle("e")
	if _, _, err := bob.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := book.reads["bob"].Load(); n != before {
		t.Fatalf("bob was read again at an unchanged version")
	}
}

// A session whose credential expires is closed at that time.
func TestSessionClosesAtExpiry(t *testing.T) {
	hub, book, url := accessHub(t, "u")
	expires := time.Now().Add(300 * time.Millisecond)
	book.set("u", Grant{Viewer: engine.PlayerViewer("x"), Access: 1, Expires: expires}, nil)
	c := dialAs(t, hub, url, "u")
	closedWith(t, c, CloseSignedOut)
	if time.Now().Before(expires) {
		t.Fatalf("closed at %v, before its expiry %v", time.Now(), expires)
	}
}

// TestPublishDoesNotWaitForTheHub: Publish hands the update over and
// returns while its clients are still being authorised again (the owner's
// next command never waits for that); the events then reach them, in
// order.
func TestPublishDoesNotWaitForTheHub(t *testing.T) {
	hub, book, url := accessHub(t, "ann")
	ann := dialAs(t, hub, url, "ann")
	book.set("ann", Grant{Viewer: engine.PlayerViewer("ann-pc"), Access: 2}, nil)
	st := &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1, Seq: 1}
	book.mu.Lock() // ann's re-authorisation waits
	returned := make(chan struct{})
	go func() {
		hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: st, Seq: 1, Access: 2,
			Events: []engine.Event{{Seq: 1, Kind: "tick"}}})
		hub.Publish(play.Update{EncounterID: "e", Ruleset: nullRules{}, State: &engine.Base{ID: "e", Status: engine.StatusRunning, Turn: -1, Seq: 2}, Seq: 2, Access: 2,
			Events: []engine.Event{{Seq: 2, Kind: "tock"}}})
		close(returned)
	}()
	select {
	case <-returned:
	case <-time.After(patience.Hang()):
		book.mu.Unlock()
		t.Fatal("Publish waited for a client's re-authorisation")
	}
	book.mu.Unlock()
	for _, want := range []string{`"tick"`, `"tock"`} {
		_, data, err := ann.Read(context.Background())
		if err != nil || !strings.Contains(string(data), want) {
			t.Fatalf("ann got %s %v, want %s", data, err, want)
		}
	}
}
