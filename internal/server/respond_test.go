package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
	} {
		r := httptest.NewRequest("POST", "/api/x", strings.NewReader(body))
		var v struct{ Name string }
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
}
