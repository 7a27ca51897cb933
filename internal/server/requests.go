package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/fray"
)

type requestLogKey struct{}

// requestLog gives every request an id — sent back as X-Request-Id, shown
// with every internal error and logged with it — and turns a panic in a
// handler into a logged 500 instead of a dropped connection.
func (s *Server) requestLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := newRequestID()
		w.Header().Set("X-Request-Id", id)
		log := s.Logger.With("request_id", id)
		r = r.WithContext(context.WithValue(r.Context(), requestLogKey{}, log))
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			log.Error("panic serving request", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			if !isWebsocket(r) {
				writeErrorLogged(w, r, fray.Errorf(fray.EINTERNAL, "internal error"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func newRequestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// requestLogger is the request's logger (with its id), or a discarding one.
func requestLogger(r *http.Request) *slog.Logger {
	if l, ok := r.Context().Value(requestLogKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.New(slog.DiscardHandler)
}

// requestID is the id requestLog gave r ("" outside it).
func requestID(w http.ResponseWriter) string { return w.Header().Get("X-Request-Id") }

// cleanPaths answers 404 for a path that no route, file or id can match
// because, decoded, it is not valid UTF-8 or holds a control character
// ("/static/%ff", "/campaigns/x/pcs/%00"): ids are text, and PostgreSQL
// stores no NUL. Such bytes never reach a handler, the file server or the
// database, so they cannot end in a 500.
func cleanPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; !utf8.ValidString(p) || strings.ContainsFunc(p, unicode.IsControl) {
			writeError(w, r, fray.Errorf(fray.ENOTFOUND, "no such page"))
			return
		}
		next.ServeHTTP(w, r)
	})
}
