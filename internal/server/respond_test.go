package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
)

// Every error code has its one status; an unknown one is a 500.
func TestStatusOf(t *testing.T) {
	for code, want := range map[string]int{
		fray.EINVALID: 400, fray.EILLEGAL: 422, fray.ENOTYOURTURN: 409, fray.EPENDING: 409, fray.ECONFLICT: 409,
		fray.EFORBIDDEN: 403, fray.EUNAUTHORIZED: 401, fray.ERATELIMIT: 429, fray.ENOTFOUND: 404, fray.ETOOLARGE: 413,
		fray.EUNAVAILABLE: 503, fray.EOUTCOMEUNKNOWN: 503, fray.EINTERNAL: 500, "": 500,
	} {
		if got := statusOf(code); got != want {
			t.Errorf("statusOf(%q) = %d, want %d", code, got, want)
		}
	}
}

// An error is JSON for the API, a page for browsers, text otherwise; a 500
// never shows its message.
func TestWriteError(t *testing.T) {
	for _, tc := range []struct {
		path, accept string
		err          error
		status       int
		ctype, says  string
	}{
		{"/api/x", "", fray.Errorf(fray.EINVALID, "bad seq"), 400, "application/json", `{"code":"invalid","message":"bad seq"}`},
		{"/x", "text/html", fray.Errorf(fray.ENOTFOUND, "no such encounter"), 404, "text/html; charset=utf-8", "no such encounter"},
		{"/x", "", fray.Errorf(fray.ECONFLICT, "taken"), 409, "text/plain; charset=utf-8", "taken\n"},
		{"/x", "text/html", fray.Errorf(fray.EINTERNAL, "pq: secret detail"), 500, "text/html; charset=utf-8", "Something went wrong on the server"},
	} {
		r := httptest.NewRequest("GET", tc.path, nil)
		r.Header.Set("Accept", tc.accept)
		w := httptest.NewRecorder()
		writeError(w, r, tc.err)
		body := w.Body.String()
		if w.Code != tc.status || w.Header().Get("Content-Type") != tc.ctype || !strings.Contains(body, tc.says) {
			t.Errorf("%s %v: %d %q %q", tc.path, tc.err, w.Code, w.Header().Get("Content-Type"), body)
		}
		if strings.Contains(body, "secret detail") {
			t.Errorf("a 500 shows its cause: %q", body)
		}
	}
}

func TestReadJSON(t *testing.T) {
	for body, code := range map[string]string{
		`{"name":"a"}`:         "",
		`{"name":"a","x":1}`:   fray.EINVALID,
		`{"name":"a"} {"b":1}`: fray.EINVALID,
		`{"name":"a"`:          fray.EINVALID,
		"{\"name\":\"\xff\"}":  fray.EINVALID,
		`{"name":` + "1" + `}`: fray.EINVALID,
		`{"Name":"a"}`:         fray.EINVALID, // names are exact
	} {
		r := httptest.NewRequest("POST", "/api/x", strings.NewReader(body))
		var v struct {
			Name string `json:"name"`
		}
		if got := fray.ErrorCode(readJSON(r, &v)); got != code {
			t.Errorf("%q: code %q, want %q", body, got, code)
		}
	}
	r := httptest.NewRequest("POST", "/api/x", strings.NewReader(`{"name":"`+strings.Repeat("x", 100)+`"}`))
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 10)
	var v struct{ Name string }
	if got := fray.ErrorCode(readJSON(r, &v)); got != fray.ETOOLARGE {
		t.Fatalf("an oversized body: %q", got)
	}
}

func TestFlashRoundTrip(t *testing.T) {
	w := httptest.NewRecorder()
	long := strings.Repeat("é", flashMax)
	setFlash(w, httptest.NewRequest("POST", "/x", nil), flashError, long)
	r := httptest.NewRequest("GET", "/x", nil)
	for _, c := range w.Result().Cookies() {
		r.AddCookie(c)
	}
	w = httptest.NewRecorder()
	got := takeFlash(w, r, flashError)
	if len(got) > flashMax || !strings.HasPrefix(long, got) || got == "" {
		t.Fatalf("the message came back as %d bytes", len(got))
	}
	if c := w.Result().Cookies(); len(c) != 1 || c[0].MaxAge >= 0 {
		t.Fatal("taking a flash does not forget it")
	}
	if takeFlash(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil), flashError) != "" {
		t.Fatal("a flash from nowhere")
	}
}

// Pages carry the security headers.
func TestSecurityHeaders(t *testing.T) {
	res := newWorld(t, nil).do(t, req{method: "GET", path: "/login", html: true})
	for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"} {
		if res.Header.Get(h) != want {
			t.Errorf("%s: %q", h, res.Header.Get(h))
		}
	}
	if !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Error("no frame-ancestors in the CSP")
	}
	if pp := res.Header.Get("Permissions-Policy"); !strings.Contains(pp, "camera=()") || !strings.Contains(pp, "geolocation=()") {
		t.Errorf("Permissions-Policy: %q", pp)
	}
	// No store keeps someone's page or API answer; static files and
	// pictures say their own.
	w := newWorld(t, nil)
	for _, c := range []struct {
		r    req
		want string
	}{
		{req{method: "GET", path: "/login", html: true}, "no-store"},
		{req{method: "GET", path: "/campaigns/camp", as: "gm", html: true}, "no-store"},
		{req{method: "GET", path: "/api/me", as: "gm"}, "no-store"},
		{req{method: "GET", path: "/api/campaigns", bearer: "gm"}, "no-store"},
		{req{method: "POST", path: "/api/campaigns", as: "gm", json: `{"Name":"x"}`}, "no-store"},
		{req{method: "GET", path: "/static/app.js"}, "no-cache"},
		{req{method: "GET", path: "/assets/" + assetID, as: "gm"}, "private, max-age=31536000, immutable"},
	} {
		if got := w.do(t, c.r).Header.Get("Cache-Control"); got != c.want {
			t.Errorf("%s %s: Cache-Control %q, want %q", c.r.method, c.r.path, got, c.want)
		}
	}
}

// A refusal for now says when to try again: busy and unavailable are 503
// with Retry-After (the error's own, or 5 s), a rate limit 429 with the
// error's.
func TestRefusalsSayWhenToRetry(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		after  string
	}{
		{fray.Errorf(fray.EBUSY, "busy").After(7 * time.Second), 503, "7"},
		{fray.Errorf(fray.EBUSY, "busy"), 503, "5"},
		{fray.Errorf(fray.EUNAVAILABLE, "down"), 503, "5"},
		{fray.Errorf(fray.ERATELIMIT, "slow down").After(1500 * time.Millisecond), 429, "2"},
		{fray.Errorf(fray.ERATELIMIT, "slow down"), 429, ""},
		{fray.Errorf(fray.EINVALID, "no"), 400, ""},
	} {
		rec := httptest.NewRecorder()
		writeError(rec, httptest.NewRequest("POST", "/api/campaigns/c1/assets", nil), c.err)
		if rec.Code != c.status || rec.Header().Get("Retry-After") != c.after {
			t.Errorf("%v: %d, Retry-After %q; want %d, %q", c.err, rec.Code, rec.Header().Get("Retry-After"), c.status, c.after)
		}
	}
}

// Every 500 is logged at ERROR with the request's id, which the answer
// quotes (X-Request-Id and the body); a panic is one too. Client mistakes
// are not logged at ERROR.
func TestInternalErrorsAreLoggedWithTheRequestID(t *testing.T) {
	var logs bytes.Buffer
	s := newWorld(t, nil)
	s.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	for _, tc := range []struct {
		name, path string
		handler    http.HandlerFunc
		status     int
		logged     bool
	}{
		{"an error without a code", "/api/x", func(w http.ResponseWriter, r *http.Request) { writeError(w, r, errors.New("disk on fire")) }, 500, true},
		{"a page", "/x", func(w http.ResponseWriter, r *http.Request) { writeError(w, r, errors.New("disk on fire")) }, 500, true},
		{"a panic", "/api/x", func(w http.ResponseWriter, r *http.Request) { panic("nil map") }, 500, true},
		{"a client's mistake", "/api/x", func(w http.ResponseWriter, r *http.Request) {
			writeError(w, r, fray.Errorf(fray.EINVALID, "bad"))
		}, 400, false},
	} {
		logs.Reset()
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", tc.path, nil)
		r.Header.Set("Accept", "text/html")
		s.requestLog(tc.handler).ServeHTTP(w, r)
		id := w.Header().Get("X-Request-Id")
		if w.Code != tc.status || id == "" {
			t.Errorf("%s: %d, request id %q", tc.name, w.Code, id)
			continue
		}
		logged := strings.Contains(logs.String(), "level=ERROR") && strings.Contains(logs.String(), "request_id="+id)
		if logged != tc.logged {
			t.Errorf("%s: logged at ERROR with the id: %v, want %v\n%s", tc.name, logged, tc.logged, logs.String())
		}
		if tc.status == 500 {
			if !strings.Contains(w.Body.String(), id) {
				t.Errorf("%s: the answer does not quote the request id: %s", tc.name, w.Body)
			}
			if strings.Contains(w.Body.String(), "disk on fire") || strings.Contains(w.Body.String(), "nil map") {
				t.Errorf("%s: the answer shows the internal error: %s", tc.name, w.Body)
			}
			if strings.HasPrefix(tc.path, "/api/") {
				var e errorBody
				if json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Code != fray.EINTERNAL || e.RequestID != id {
					t.Errorf("%s: body %s", tc.name, w.Body)
				}
			}
		}
	}
}
