package server

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestAssetAnswers: a picture is served with an ETag and immutable
// caching, and a matching If-None-Match is answered 304 without its bytes;
// an unknown picture is 404.
func TestAssetAnswers(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "GET", path: "/assets/" + assetID, as: "pl"})
	if res.StatusCode != 200 || res.Header.Get("ETag") == "" || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") ||
		res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("%d %v", res.StatusCode, res.Header)
	}
	hr := httptest.NewRequest("GET", "/assets/"+assetID, nil)
	hr.AddCookie(&http.Cookie{Name: sessionCookie, Value: "pl"})
	hr.Header.Set("If-None-Match", res.Header.Get("ETag"))
	rec := httptest.NewRecorder()
	w.ServeHTTP(rec, hr)
	if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	if res := w.do(t, req{method: "GET", path: "/assets/" + strings.Repeat("0", 64), as: "gm"}); res.StatusCode != 404 {
		t.Errorf("unknown picture: %d", res.StatusCode)
	}
	if res := w.do(t, req{method: "GET", path: "/assets/..%2f..%2fetc", as: "gm"}); res.StatusCode != 404 && res.StatusCode != 400 {
		t.Errorf("odd id: %d", res.StatusCode)
	}
}

// TestUploadRefusals: an upload that is not multipart, has no file, or is
// larger than a picture may be is refused with a clear message before any
// service is called; the body is read no further than the limit.
func TestUploadRefusals(t *testing.T) {
	big := func() (*bytes.Buffer, string) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		fw, _ := mw.CreateFormFile("file", "huge.png")
		_, _ = fw.Write(bytes.Repeat([]byte{0x89}, 11<<20))
		_ = mw.Close()
		return &b, mw.FormDataContentType()
	}
	body, ctype := big()
	for _, c := range []struct {
		name, ctype string
		body        *bytes.Buffer
		status      int
		want        string
	}{
		{"JSON", "application/json", bytes.NewBufferString(`{}`), 400, "multipart/form-data"},
		{"no file", "multipart/form-data; boundary=x", bytes.NewBufferString("--x\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nhi\r\n--x--\r\n"), 400, `no field named \"file\"`},
		{"too large", ctype, body, 413, "larger than 10 MiB"},
	} {
		w := newWorld(t, nil)
		hr := httptest.NewRequest("POST", "/api/campaigns/camp/assets", c.body)
		hr.Header.Set("Content-Type", c.ctype)
		hr.AddCookie(&http.Cookie{Name: sessionCookie, Value: "gm"})
		rec := httptest.NewRecorder()
		w.ServeHTTP(rec, hr)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%s: %d %s", c.name, rec.Code, rec.Body.String())
		}
		for _, call := range w.calls.log {
			if strings.HasPrefix(call, "Upload") {
				t.Errorf("%s: the service was called", c.name)
			}
		}
	}
}

// TestCampaignNotesForGMsOnly: the campaign page shows the GMs' notes to
// its GMs and nothing of them to a player.
func TestCampaignNotesForGMsOnly(t *testing.T) {
	w := newWorld(t, nil)
	if body := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp", as: "gm"})); !strings.Contains(body, "GMSECRET") {
		t.Error("the GM's campaign page has no notes")
	}
	w = newWorld(t, nil)
	if body := text(t, w.do(t, req{method: "GET", path: "/campaigns/camp", as: "pl"})); strings.Contains(body, "GMSECRET") || strings.Contains(body, "gm-notes") {
		t.Error("the player's campaign page shows the GM's notes")
	}
	for _, c := range w.calls.log {
		if c == "CampaignNotes" {
			t.Error("the notes were read for a player")
		}
	}
	if res := w.do(t, req{method: "PUT", path: "/api/campaigns/camp/notes", json: `{"notes":"` + strings.Repeat("x", 20001) + `"}`, as: "gm"}); res.StatusCode != 400 {
		t.Errorf("notes too long: %d", res.StatusCode)
	}
}

// TestUploadsPastTheGateAreRefusedUnread: with every upload token taken
// (as many uploads as the decoders' gate can run and queue), the next
// upload — to a campaign, a draft or a portrait — is refused 503 busy
// with Retry-After before its body is read and before any service is
// called; other requests go on.
func TestUploadsPastTheGateAreRefusedUnread(t *testing.T) {
	w := newWorld(t, nil)
	for range cap(w.uploads) {
		w.uploads <- struct{}{}
	}
	for _, path := range []string{"/api/campaigns/camp/assets", "/drafts/d1/pictures", "/campaigns/camp/bestiary/orc/portrait"} {
		res := w.do(t, req{method: "POST", path: path, file: "\x89PNG", as: "gm"})
		if res.StatusCode != http.StatusServiceUnavailable && res.StatusCode != http.StatusSeeOther || res.Header.Get("Retry-After") != "5" {
			t.Errorf("%s: %d, Retry-After %q", path, res.StatusCode, res.Header.Get("Retry-After"))
		}
	}
	w.calls.mu.Lock()
	called := slices.ContainsFunc(w.calls.log, func(c string) bool { return strings.HasPrefix(c, "Upload") || strings.HasPrefix(c, "Set") })
	w.calls.mu.Unlock()
	if called {
		t.Errorf("a service was called: %v", w.calls.log)
	}
	if res := w.do(t, req{method: "GET", path: "/api/campaigns/camp/assets", as: "gm"}); res.StatusCode != http.StatusOK {
		t.Errorf("a listing: %d", res.StatusCode)
	}
	<-w.uploads
	if res := w.do(t, req{method: "POST", path: "/api/campaigns/camp/assets", file: "\x89PNG", as: "gm"}); res.StatusCode != http.StatusCreated {
		t.Errorf("with a token free: %d", res.StatusCode)
	}
}
