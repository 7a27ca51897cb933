package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/prep/preptest"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// heapBound is how much the server's heap (this process's: the server
// runs in it) may grow above its resting size while it is sent every
// hostile document through every entry point and renders a draft stored
// far past the limits. Before the limits, one 1,000,000-wide grid made a
// 64 MiB draft page.
const heapBound = 48 << 20

// heapWatch samples the heap every few milliseconds and keeps the largest.
type heapWatch struct {
	base, peak atomic.Uint64
	stop       chan struct{}
	done       sync.WaitGroup
}

func watchHeap() *heapWatch {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	h := &heapWatch{stop: make(chan struct{})}
	h.base.Store(m.HeapAlloc)
	h.peak.Store(m.HeapAlloc)
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > h.peak.Load() {
					h.peak.Store(m.HeapAlloc)
				}
			}
		}
	}()
	return h
}

// growth stops the watch and returns the peak heap above the base.
func (h *heapWatch) growth() uint64 {
	close(h.stop)
	h.done.Wait()
	return h.peak.Load() - min(h.base.Load(), h.peak.Load())
}

// upload posts file as the multipart form field "file" (plus fields) and
// returns the answer, not following redirects.
func (b *browser) upload(s *testServer, path string, file []byte, fields url.Values) *http.Response {
	b.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, vs := range fields {
		for _, v := range vs {
			_ = mw.WriteField(k, v)
		}
	}
	fw, _ := mw.CreateFormFile("file", "encounter.json")
	_, _ = fw.Write(file)
	_ = mw.Close()
	resp, err := b.client.Post(s.URL+path, mw.FormDataContentType(), &body)
	if err != nil {
		b.t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// flashOf is the message a redirect left for the next page (kind "error"
// or "notice"), "" for none.
func flashOf(resp *http.Response, kind string) string {
	for _, c := range resp.Cookies() {
		if c.Name == "fray_flash_"+kind && c.Value != "" {
			b, _ := base64.RawURLEncoding.DecodeString(c.Value)
			return string(b)
		}
	}
	return ""
}

// apiRefusal posts body to path as u and returns the status and message.
func (s *testServer) apiRefusal(path string, body []byte) (int, string) {
	s.t.Helper()
	var e struct{ Code, Message string }
	code := s.do("POST", path, body, &e)
	return code, e.Message
}

// TestHostileImportsAreRefused sends drafts and encounters with huge,
// negative and absurd grids, 10,000 combatants, deep nesting, oversize
// names, a NUL and more than a mebibyte through every entry point — the
// API (into a campaign and into a new one), the campaign page's upload,
// the draft import and replace, `server encounter import`, draft edits,
// bestiary and characters files and the stat block form — and checks each
// is refused with a clear message, nothing is stored, a draft stored far
// past the limits renders small, nothing is logged at ERROR, and the heap
// stays within heapBound.
func TestHostileImportsAreRefused(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startServer(t, dbURL)
	gm := srv.signup("gamemaster")
	api := srv.withUser(gm)
	var camp struct{ ID string }
	if code := api.do("POST", "/api/campaigns", map[string]string{"name": "Hostile"}, &camp); code != http.StatusCreated {
		t.Fatalf("campaign: %d", code)
	}
	b := srv.login("gamemaster")
	resp := b.post(srv, "/campaigns/"+camp.ID+"/drafts", url.Values{"ruleset": {"d20-tactical"}, "name": {"Kept"}})
	draftID := strings.TrimPrefix(resp.Header.Get("Location"), "/drafts/")
	if resp.StatusCode != http.StatusSeeOther || draftID == "" {
		t.Fatalf("new draft: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	db, err := store.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	draftBefore, err := db.Draft(context.Background(), draftID)
	if err != nil {
		t.Fatal(err)
	}

	docs := preptest.HostileSetups()
	docs["five mebibytes"] = append([]byte(`{"name":"X","ruleset":"sw-zones","sides":[],"combatants":[],"options":{"x":"`),
		append(bytes.Repeat([]byte("x"), 5<<20), `"}}`...)...)
	clear := func(what, msg string) {
		t.Helper()
		if msg == "" || len(msg) > 400 || strings.Contains(msg, "internal") {
			t.Errorf("%s: unclear message %q", what, msg)
		}
	}
	dir := t.TempDir()
	env := func(k string) string { return map[string]string{"DATABASE_URL": dbURL, "FRAY_LOG_LEVEL": "error"}[k] }

	heap := watchHeap()
	for name, data := range docs {
		for _, path := range []string{"/api/campaigns/" + camp.ID + "/encounters", "/api/encounters", "/api/encounters?campaign=" + camp.ID} {
			code, msg := api.apiRefusal(path, data)
			if code != http.StatusBadRequest && code != http.StatusRequestEntityTooLarge {
				t.Errorf("%s: POST %s: %d %q, want 400 or 413", name, path, code, msg)
			}
			clear(name+" over the API", msg)
		}
		for _, path := range []string{"/campaigns/" + camp.ID + "/encounters/import", "/campaigns/" + camp.ID + "/drafts/import", "/drafts/" + draftID + "/import"} {
			resp := b.upload(srv, path, data, nil)
			msg := flashOf(resp, "error")
			if resp.StatusCode != http.StatusSeeOther || flashOf(resp, "notice") != "" {
				t.Errorf("%s: upload to %s: %d, notice %q", name, path, resp.StatusCode, flashOf(resp, "notice"))
			}
			if len(data) > 2<<20 && msg == "" {
				continue // the body was over the server's limit: refused before the handler could say more
			}
			clear(name+" uploaded to "+path, msg)
		}
		file := filepath.Join(dir, "hostile.json")
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		err := run(context.Background(), []string{"encounter", "import", file, "-campaign", camp.ID}, env, io.Discard)
		if err == nil {
			t.Errorf("%s: server encounter import accepted it", name)
		} else {
			clear(name+" on the command line", err.Error())
		}
	}

	// Draft edits past the limits.
	edit := func(what string, form url.Values) {
		t.Helper()
		resp := b.post(srv, "/drafts/"+draftID+"/edit", form)
		if msg := flashOf(resp, "error"); resp.StatusCode != http.StatusSeeOther || msg == "" {
			t.Errorf("edit %s: %d, no refusal", what, resp.StatusCode)
		} else {
			clear("edit "+what, msg)
		}
	}
	edit("a grid a million wide", url.Values{"op": {"grid-size"}, "width": {"1000000"}, "height": {"8"}})
	edit("a negative grid", url.Values{"op": {"grid-size"}, "width": {"-5"}, "height": {"8"}})
	edit("an oversize side name", url.Values{"op": {"side-add"}, "name": {strings.Repeat("S", 10000)}})
	edit("an oversize encounter name", url.Values{"op": {"settings"}, "name": {strings.Repeat("N", 1000)}})
	edit("a cell off the grid", url.Values{"op": {"cell-set"}, "x": {"4000"}, "y": {"0"}})

	// Stat blocks: bestiary and characters files, the form.
	var ex prep.Example
	if ex, err = prep.ExampleNamed("d20-tactical-alley-brawl"); err != nil {
		t.Fatal(err)
	}
	setup, _ := engine.DecodeSetup(ex.Data)
	stats := string(setup.Combatants[len(setup.Combatants)-1].Stats)
	entry := func(id, name string) string {
		return fmt.Sprintf(`{"id":%q,"name":%q,"ruleset":"d20-tactical","stats":%s}`, id, name, stats)
	}
	many := make([]string, 501)
	for i := range many {
		many[i] = entry(fmt.Sprint("e", i), "Thug")
	}
	for what, file := range map[string]string{
		"an oversize name":        "[" + entry("thug", strings.Repeat("T", 5000)) + "]",
		"a NUL in an id":          `[{"id":"th\u0000ug","name":"Thug","ruleset":"d20-tactical","stats":{}}]`,
		"a control byte in an id": "[" + entry("th\x01ug", "Thug") + "]",
		"501 entries":             "[" + strings.Join(many, ",") + "]",
		"deep nesting":            `[{"id":"a","name":"A","ruleset":"d20-tactical","stats":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}]`,
		"a stray brace":           "[" + entry("thug", "Thug") + "]}",
		"oversize stats":          "[" + entry("thug", "Thug")[:len(entry("thug", "Thug"))-1] + `,"x":"` + strings.Repeat("x", prep.MaxStatsBytes) + `"}]`,
		"an id with spaces":       "[" + entry("a thug", "Thug") + "]",
		"an oversize revision":    `[{"id":"pc","name":"PC","ruleset":"d20-tactical","stats":` + stats + `,"revisions":[{"revision":1,"kind":"created","name":"` + strings.Repeat("R", 500) + `","stats":` + stats + `,"changes":[],"at":"2024-01-01T00:00:00Z"}]}]`,
		"a revision's deep stats": `[{"id":"pc","name":"PC","ruleset":"d20-tactical","stats":` + stats + `,"revisions":[{"revision":1,"kind":"created","stats":` + strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40) + `,"changes":[],"at":"2024-01-01T00:00:00Z"}]}]`,
	} {
		paths := []string{"/campaigns/" + camp.ID + "/bestiary/import", "/campaigns/" + camp.ID + "/characters/import"}
		if strings.Contains(what, "revision") {
			paths = paths[1:]
		}
		for _, path := range paths {
			resp := b.upload(srv, path, []byte(file), nil)
			if msg := flashOf(resp, "error"); resp.StatusCode != http.StatusSeeOther || msg == "" {
				t.Errorf("%s to %s: %d, notice %q", what, path, resp.StatusCode, flashOf(resp, "notice"))
			} else {
				clear(what+" to "+path, msg)
			}
		}
	}
	form := url.Values{"ruleset": {"d20-tactical"}, "name": {strings.Repeat("N", 5000)}}
	if r := b.post(srv, "/campaigns/"+camp.ID+"/bestiary", form); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a stat block named with 5,000 characters: %d, want 400", r.StatusCode)
	}

	// A draft stored far past the limits (before they existed) renders
	// small, without its battlefield.
	var horde strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&horde, `,{"id":"g%d","name":"Goblin %d","side":"b","stats":%s}`, i, i, stats)
	}
	bad := `{"name":"Stored before the limits","ruleset":"d20-tactical","sides":[{"id":"a","name":"A"},{"id":"b","name":"B"}],` +
		`"combatants":[` + horde.String()[1:] + `],"battlefield":{"width":1000000,"height":1000000}}`
	stored, err := db.CreateDraft(context.Background(), store.Draft{CampaignID: camp.ID, Name: "Stored", Ruleset: "d20-tactical", Setup: []byte(bad)})
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	page, err := b.client.Get(srv.URL + "/drafts/" + stored.ID)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if page.StatusCode != http.StatusOK || !strings.Contains(string(html), "past the limits") || len(html) > 1<<20 {
		t.Errorf("the stored draft's page: %d, %d bytes in %v, mentions the limits: %v", page.StatusCode, len(html), time.Since(started),
			strings.Contains(string(html), "past the limits"))
	}
	if r := b.post(srv, "/drafts/"+stored.ID+"/create", nil); flashOf(r, "error") == "" {
		t.Errorf("creating an encounter from the stored draft: %d, no refusal", r.StatusCode)
	}
	grew := heap.growth()
	t.Logf("heap grew by at most %.1f MiB (bound %d MiB)", float64(grew)/(1<<20), heapBound>>20)
	if grew > heapBound {
		t.Errorf("the heap grew by %.1f MiB, over the bound of %d MiB", float64(grew)/(1<<20), heapBound>>20)
	}

	// Nothing was stored.
	encs, err := db.Encounters(context.Background(), camp.ID)
	if err != nil || len(encs) != 0 {
		t.Errorf("encounters stored: %d, %v", len(encs), err)
	}
	var camps []json.RawMessage
	api.do("GET", "/api/campaigns", nil, &camps)
	if len(camps) != 1 {
		t.Errorf("%d campaigns: an import without a campaign made one", len(camps))
	}
	drafts, _ := db.Drafts(context.Background(), camp.ID)
	if len(drafts) != 2 {
		t.Errorf("%d drafts, want the kept one and the stored one", len(drafts))
	}
	draftAfter, _ := db.Draft(context.Background(), draftID)
	if !bytes.Equal(draftAfter.Setup, draftBefore.Setup) {
		t.Errorf("the kept draft changed: %s", draftAfter.Setup)
	}
	for _, kind := range []string{store.KindBestiary, store.KindCharacter} {
		if bs, _ := db.StatBlocks(context.Background(), kind, camp.ID); len(bs) != 0 {
			t.Errorf("%d %s entries stored", len(bs), kind)
		}
	}
	if errs := srv.logs.errors(); len(errs) > 0 {
		t.Errorf("client mistakes logged at ERROR: %q", errs)
	}
}
