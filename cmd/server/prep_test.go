package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// prepReply is a response to a preparation request, redirects not followed.
type prepReply struct {
	code     int
	body     []byte
	location string
	header   http.Header
}

func (s *testServer) prepReq(u *apiUser, method, path, contentType string, body io.Reader) prepReply {
	s.t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, body)
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
	return prepReply{code: resp.StatusCode, body: data, location: resp.Header.Get("Location"), header: resp.Header}
}

func (s *testServer) prepForm(u *apiUser, path string, form url.Values) prepReply {
	return s.prepReq(u, "POST", path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
}

func (s *testServer) upload(u *apiUser, path string, data []byte) prepReply {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "encounter.json")
	_, _ = fw.Write(data)
	_ = mw.Close()
	return s.prepReq(u, "POST", path, mw.FormDataContentType(), &buf)
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(x, y)
}

// TestSetupExportImportRoundTrip: an encounter's exported setup imports as a
// draft, becomes an encounter again, and exports identically; bad files are
// refused with a clear message and store nothing.
func TestSetupExportImportRoundTrip(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startServer(t, dbURL)
	tb := srv.newTable()
	db, err := store.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func() int {
		ds, err := db.Drafts(context.Background(), tb.campaign)
		if err != nil {
			t.Fatal(err)
		}
		es, _ := db.Encounters(context.Background(), tb.campaign)
		return len(ds)*1000 + len(es)
	}

	exp := srv.prepReq(tb.gm, "GET", "/encounters/"+tb.id+"/setup.json", "", nil)
	if exp.code != 200 {
		t.Fatalf("export: %d %s", exp.code, exp.body)
	}
	imp := srv.upload(tb.gm, "/campaigns/"+tb.campaign+"/drafts/import", exp.body)
	if imp.code != http.StatusSeeOther || !strings.HasPrefix(imp.location, "/drafts/") {
		t.Fatalf("import: %d %s", imp.code, imp.location)
	}
	draft := strings.SplitN(strings.TrimPrefix(imp.location, "/drafts/"), "?", 2)[0]
	if d := srv.prepReq(tb.gm, "GET", "/drafts/"+draft+"/setup.json", "", nil); !sameJSON(t, exp.body, d.body) {
		t.Fatalf("draft export differs:\n%s\n%s", exp.body, d.body)
	}
	page := srv.prepReq(tb.gm, "GET", "/drafts/"+draft, "", nil)
	if !strings.Contains(string(page.body), "Ready to create") {
		t.Fatalf("draft page does not say ready: %s", page.body)
	}
	created := srv.prepForm(tb.gm, "/drafts/"+draft+"/create", nil)
	if created.code != http.StatusSeeOther || !strings.HasPrefix(created.location, "/encounters/") {
		t.Fatalf("create: %d %s", created.code, created.location)
	}
	again := srv.prepReq(tb.gm, "GET", created.location+"/setup.json", "", nil)
	if !sameJSON(t, exp.body, again.body) {
		t.Fatalf("round trip differs:\n%s\n%s", exp.body, again.body)
	}

	// Duplicating an encounter copies its setup into a draft named as a
	// copy, and a second copy is numbered.
	var names []string
	for range 2 {
		dup := srv.prepForm(tb.gm, "/encounters/"+tb.id+"/duplicate", nil)
		if dup.code != http.StatusSeeOther || !strings.HasPrefix(dup.location, "/drafts/") {
			t.Fatalf("duplicate: %d %s", dup.code, dup.location)
		}
		var setup struct{ Name string }
		if err := json.Unmarshal(srv.prepReq(tb.gm, "GET", strings.SplitN(dup.location, "?", 2)[0]+"/setup.json", "", nil).body, &setup); err != nil {
			t.Fatal(err)
		}
		names = append(names, setup.Name)
	}
	var orig struct{ Name string }
	_ = json.Unmarshal(exp.body, &orig)
	if names[0] != orig.Name+" (copy)" || names[1] != orig.Name+" (copy 2)" {
		t.Fatalf("duplicates of %q are named %q", orig.Name, names)
	}

	before := count()
	big := append([]byte(`{"name":"x","ruleset":"sw-zones","sides":[],"combatants":[],"pad":"`), bytes.Repeat([]byte("a"), 1<<20)...)
	big = append(big, `"}`...)
	for name, file := range map[string][]byte{
		"malformed": []byte(`{"name": "x", "ruleset": `),
		"unknown":   []byte(`{"name": "x", "ruleset": "sw-zones", "sides": [], "combatants": [], "colour": "red"}`),
		"ruleset":   []byte(`{"name": "x", "ruleset": "nope", "sides": [], "combatants": []}`),
		"oversized": big,
	} {
		r := srv.upload(tb.gm, "/campaigns/"+tb.campaign+"/drafts/import", file)
		if r.code != http.StatusSeeOther || !strings.Contains(flash(r.header, "error"), "not imported") || strings.Contains(r.location, "?") {
			t.Errorf("%s: %d %q %q", name, r.code, r.location, flash(r.header, "error"))
		}
		r = srv.upload(tb.gm, "/campaigns/"+tb.campaign+"/bestiary/import", file)
		if !strings.Contains(flash(r.header, "error"), "not imported") {
			t.Errorf("bestiary %s: %d %q", name, r.code, r.location)
		}
	}
	// A bestiary with one bad entry stores none of them.
	r := srv.upload(tb.gm, "/campaigns/"+tb.campaign+"/bestiary/import", []byte(`[
		{"id":"orc","name":"Orc","ruleset":"sw-zones","stats":{"attributes":{"agility":"d6","smarts":"d4","spirit":"d6","strength":"d8","vigor":"d8"}}},
		{"id":"bad","name":"Bad","ruleset":"sw-zones","stats":{"attributes":{"agility":"d7"}}}]`))
	if !strings.Contains(flash(r.header, "error"), "entry 2") {
		t.Errorf("bad bestiary: %q", flash(r.header, "error"))
	}
	if bs, _ := db.StatBlocks(context.Background(), store.KindBestiary, tb.campaign); len(bs) != 0 {
		t.Fatalf("a refused bestiary stored %d entries", len(bs))
	}
	if after := count(); after != before {
		t.Fatalf("refused files stored something: %d → %d", before, after)
	}
	// A good bestiary round-trips through export.
	good := []byte(`[{"id":"orc","name":"Orc","ruleset":"sw-zones","stats":{"attributes":{"agility":"d6","smarts":"d4","spirit":"d6","strength":"d8","vigor":"d8"}}}]`)
	if r := srv.upload(tb.gm, "/campaigns/"+tb.campaign+"/bestiary/import", good); !strings.Contains(flash(r.header, "notice"), "Imported") {
		t.Fatalf("good bestiary: %q", r.location)
	}
	if e := srv.prepReq(tb.gm, "GET", "/campaigns/"+tb.campaign+"/bestiary.json", "", nil); !sameJSON(t, good, e.body) {
		t.Fatalf("bestiary export: %s", e.body)
	}
}

// TestPrepAuthorization: players and strangers get 403 or 404 on every
// preparation route; the GM does not.
func TestPrepAuthorization(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	stranger := srv.signup("stranger")
	c := "/campaigns/" + tb.campaign
	imp := srv.upload(tb.gm, c+"/drafts/import", srv.prepReq(tb.gm, "GET", "/encounters/"+tb.id+"/setup.json", "", nil).body)
	draft := "/drafts/" + strings.SplitN(strings.TrimPrefix(imp.location, "/drafts/"), "?", 2)[0]
	srv.prepForm(tb.gm, c+"/bestiary", url.Values{"ruleset": {"sw-zones"}, "name": {"Orc"}, "attributes.agility": {"d6"},
		"attributes.smarts": {"d6"}, "attributes.spirit": {"d6"}, "attributes.strength": {"d6"}, "attributes.vigor": {"d6"}})
	routes := []struct{ method, path string }{
		{"POST", c + "/drafts"}, {"POST", c + "/drafts/import"}, {"GET", draft}, {"POST", draft + "/edit"},
		{"POST", draft + "/create"}, {"POST", draft + "/import"}, {"GET", draft + "/setup.json"}, {"POST", draft + "/delete"},
		{"GET", "/encounters/" + tb.id + "/setup.json"}, {"POST", "/encounters/" + tb.id + "/duplicate"},
		{"GET", c + "/bestiary.json"}, {"POST", c + "/bestiary/import"}, {"GET", c + "/bestiary/new"}, {"POST", c + "/bestiary"},
		{"GET", c + "/bestiary/orc"}, {"POST", c + "/bestiary/orc"}, {"POST", c + "/bestiary/orc/delete"},
		{"GET", c + "/pcs/new"}, {"POST", c + "/pcs"},
	}
	for _, rt := range routes {
		for who, u := range map[string]*apiUser{"player": tb.player, "stranger": stranger} {
			r := srv.prepReq(u, rt.method, rt.path, "application/x-www-form-urlencoded", strings.NewReader("name=x&ruleset=sw-zones&op=side-add"))
			if r.code != http.StatusForbidden && r.code != http.StatusNotFound {
				t.Errorf("%s %s as %s: %d", rt.method, rt.path, who, r.code)
			}
		}
		if r := srv.prepReq(nil, rt.method, rt.path, "", nil); r.code < 300 {
			t.Errorf("%s %s anonymous: %d", rt.method, rt.path, r.code)
		}
	}
	if r := srv.prepReq(tb.gm, "GET", c+"/bestiary/orc", "", nil); r.code != 200 || !strings.Contains(string(r.body), "Parry") {
		t.Fatalf("GM bestiary page: %d", r.code)
	}
}

// TestNewPlayerCharacterDefaults: a new sw-zones player character's form
// starts as a Wild Card (every hero in Savage Worlds is one), a new
// bestiary entry as an Extra; saving the untouched character keeps it so.
func TestNewPlayerCharacterDefaults(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	c := "/campaigns/" + tb.campaign
	wild := regexp.MustCompile(`<input[^>]*name="wildCard"[^>]*>`)
	for kind, want := range map[string]bool{"pcs": true, "bestiary": false} {
		r := srv.prepReq(tb.gm, "GET", c+"/"+kind+"/new?ruleset=sw-zones", "", nil)
		input := wild.FindString(string(r.body))
		if r.code != 200 || input == "" {
			t.Fatalf("new %s: %d, Wild Card input %q", kind, r.code, input)
		}
		if got := strings.Contains(input, "checked"); got != want {
			t.Errorf("a new %s starts as a Wild Card: %v, want %v (%s)", kind, got, want, input)
		}
	}
}
