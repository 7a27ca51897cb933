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

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules"
)

// Every 500 is logged at ERROR with the request's id, which the answer
// quotes (X-Request-Id and the body); a panic is one too. Client mistakes
// are not logged at ERROR.
func TestInternalErrorsAreLoggedWithTheRequestID(t *testing.T) {
	var logs bytes.Buffer
	s := New(Config{Store: pathStore{}, Rulesets: rules.Registry(), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
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
