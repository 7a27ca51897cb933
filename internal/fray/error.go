// Package fray holds the domain vocabulary shared by every layer: error codes
// that the HTTP and websocket layers map to status codes in one place.
package fray

import (
	"errors"
	"fmt"
	"time"
)

// Error codes. Every error a client can see carries one of these.
const (
	EINVALID      = "invalid"       // malformed input: bad JSON, missing fields, unknown kinds
	EILLEGAL      = "illegal"       // well-formed but the rules do not allow it now
	ENOTYOURTURN  = "not_your_turn" // the actor may not act at this moment
	EPENDING      = "pending"       // a pending decision must be answered first
	EFORBIDDEN    = "forbidden"     // the viewer may not command this actor or see this thing
	EUNAUTHORIZED = "unauthorized"  // no valid session or API token
	ERATELIMIT    = "rate_limited"  // too many attempts; try again later
	ENOTFOUND     = "not_found"
	ECONFLICT     = "conflict" // optimistic concurrency lost; retry
	ETOOLARGE     = "too_large"
	EUNAVAILABLE  = "unavailable" // the database cannot be reached; nothing changed; try again shortly
	// EBUSY: the server is doing as much of this work (decoding uploaded
	// files) as it allows itself at once; nothing changed; try again after
	// the error's RetryAfter.
	EBUSY = "busy"
	// EOUTCOMEUNKNOWN: the database connection failed while a command was
	// being committed and the server could not find out whether it was. The
	// client must resend the same command with the same id: it is then
	// acknowledged if it was applied, and applied otherwise.
	EOUTCOMEUNKNOWN = "outcome_unknown"
	EINTERNAL       = "internal"
)

// Error is an error with a code a client can act on and a message a person can read.
type Error struct {
	Code    string
	Message string
	// RetryAfter, when set, is how long the client should wait before
	// trying again (an HTTP answer's Retry-After).
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, EINTERNAL for errors without one and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the human message of err; internal errors are not leaked.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// After returns e with RetryAfter set to d.
func (e *Error) After(d time.Duration) *Error {
	e.RetryAfter = d
	return e
}

// RetryAfter returns how long err asks the client to wait before trying
// again; zero when it does not say.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}
