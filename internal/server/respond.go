package server

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/strictjson"
	"github.com/fray-vtt/fray/web"
)

// maxBodyBytes bounds request bodies; imports are the largest (1 MiB).
const maxBodyBytes = 1<<20 + 4096

// statusOf maps error codes to HTTP statuses: the one place this happens.
func statusOf(code string) int {
	switch code {
	case fray.EINVALID:
		return http.StatusBadRequest
	case fray.EILLEGAL:
		return http.StatusUnprocessableEntity
	case fray.ENOTYOURTURN, fray.EPENDING, fray.ECONFLICT:
		return http.StatusConflict
	case fray.EFORBIDDEN:
		return http.StatusForbidden
	case fray.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case fray.ERATELIMIT:
		return http.StatusTooManyRequests
	case fray.ENOTFOUND:
		return http.StatusNotFound
	case fray.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case fray.EUNAVAILABLE, fray.EOUTCOMEUNKNOWN, fray.EBUSY:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

type errorBody struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	RequestID string `json:"requestId,omitempty"` // internal errors: quote it to whoever runs the server
}

// writeError answers with the error as JSON for API routes, as a page in
// the site's layout for browsers, and as plain text otherwise. A database
// that cannot be reached is 503 with a message that says so, wherever it
// shows. An internal error (500) is logged at ERROR with the request's id,
// which the answer quotes.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	err = store.Classify(err)
	if statusOf(fray.ErrorCode(err)) == http.StatusInternalServerError {
		requestLogger(r).Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeErrorLogged(w, r, err)
}

// failStatus is the status of err when a handler shows it in its own page
// (a form shown again); an internal error is logged as writeError logs it.
func failStatus(r *http.Request, err error) int {
	err = store.Classify(err)
	status := statusOf(fray.ErrorCode(err))
	if status == http.StatusInternalServerError {
		requestLogger(r).Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	return status
}

// writeErrorLogged is writeError for an error already logged.
func writeErrorLogged(w http.ResponseWriter, r *http.Request, err error) {
	code := fray.ErrorCode(err)
	status := statusOf(code)
	setRetryAfter(w, status, err)
	if strings.HasPrefix(r.URL.Path, "/api/") {
		body := errorBody{Code: code, Message: fray.ErrorMessage(err)}
		if status == http.StatusInternalServerError {
			body.RequestID = requestID(w)
		}
		writeJSON(w, status, body)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "text/html") {
		writeErrorPage(w, r, status, fray.ErrorMessage(err))
		return
	}
	msg := fray.ErrorMessage(err)
	if status == http.StatusInternalServerError {
		msg += " (request " + requestID(w) + ")"
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}

// setRetryAfter tells a client refused for now when to try again: the
// error's own RetryAfter, else 5 seconds for a 503.
func setRetryAfter(w http.ResponseWriter, status int, err error) {
	after := fray.RetryAfter(err)
	if after <= 0 && status == http.StatusServiceUnavailable {
		after = 5 * time.Second
	}
	if after > 0 && (status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests) {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(after.Seconds()))))
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// readJSON decodes a request body strictly (strictjson): one JSON value and
// nothing after it, valid UTF-8, no unknown fields, bounded nesting.
func readJSON(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if strings.Contains(err.Error(), "request body too large") {
			return fray.Errorf(fray.ETOOLARGE, "request body is too large")
		}
		return fray.Errorf(fray.EINVALID, "the request body could not be read")
	}
	if err := strictjson.DecodeWith(body, v, strictjson.Limits{File: "request body"}); err != nil {
		return fray.Errorf(fray.ErrorCode(err), "%s", strings.Replace(fray.ErrorMessage(err), "malformed JSON", "malformed JSON body", 1))
	}
	return nil
}

// permissionsPolicy turns off for the site's pages the browser features
// they never use, so that a script injected into one could not use them
// either.
const permissionsPolicy = "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=()"

// securityHeaders sets the headers every answer carries. Cache-Control is
// no-store unless the handler says otherwise (static files, pictures):
// API answers and pages are someone's data, never for a shared cache or
// the browser's back button after signing out.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("Permissions-Policy", permissionsPolicy)
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// limitBody bounds request bodies to n bytes, a picture upload's to
// maxUploadBytes — and takes one of the server's upload tokens for an
// upload, refusing it (EBUSY) before its body is read when they are all
// taken.
func (s *Server) limitBody(n int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Body != nil {
				limit := n
				if isUpload(r) {
					select {
					case s.uploads <- struct{}{}:
						defer func() { <-s.uploads }()
					default:
						writeError(w, r, fray.Errorf(fray.EBUSY, "the server is busy with other uploads; this picture was not taken: try again in a few seconds").After(intake.RetryAfter))
						return
					}
					limit = maxUploadBytes
					if strings.HasSuffix(r.URL.Path, "/map") {
						limit = maxMapBytes
					}
				}
				r.Body = http.MaxBytesReader(w, r.Body, limit)
			}
			next.ServeHTTP(w, r)
		})
	}
}

func cacheStatic(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		next.ServeHTTP(w, r)
	})
}

// errCode is err's fray code, EUNAVAILABLE when the database could not be
// reached.
func errCode(err error) string { return fray.ErrorCode(store.Classify(err)) }

// serverFault reports whether err is the server's (or its database's)
// fault rather than the client's: a form shows the client's mistakes on
// its page, and answers the server's with the error page.
func serverFault(err error) bool {
	c := errCode(err)
	return c == fray.EINTERNAL || c == fray.EUNAVAILABLE
}

// errMessage is err's message for people, saying so when the database could
// not be reached.
func errMessage(err error) string { return fray.ErrorMessage(store.Classify(err)) }

// writeErrorPage renders the error in the site's layout, with a way back
// to the page of this site the visitor came from.
func writeErrorPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	ctx := r.Context()
	if u := userFrom(r); u != nil {
		ctx = web.WithUser(ctx, u.Name)
	}
	back := ""
	if ref, err := url.Parse(r.Referer()); err == nil && ref.Host == r.Host && ref.Path != "" {
		back = ref.RequestURI()
	}
	title := http.StatusText(status)
	if status == http.StatusInternalServerError {
		msg = "Something went wrong on the server. Try again; if it keeps happening, tell whoever runs this server (request " + requestID(w) + ")."
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = web.ErrorPage(web.ErrorProps{Title: title, Message: msg, Back: back}).Render(ctx, w)
}
