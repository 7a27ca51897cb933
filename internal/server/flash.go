package server

import (
	"encoding/base64"
	"net/http"
	"unicode/utf8"
)

// Flash messages: the outcome of a form post ("Draft deleted.", an
// error), carried to the page the post redirects to in a short-lived
// cookie, never in the URL — a link cannot make a page say something the
// server did not.
const (
	flashNotice = "notice"
	flashError  = "error"
)

const flashMax = 1000 // bytes of message kept

func flashCookie(kind string) string { return "fray_flash_" + kind }

// setFlash leaves msg for the next page that takes kind.
func setFlash(w http.ResponseWriter, r *http.Request, kind, msg string) {
	if msg == "" {
		return
	}
	for len(msg) > flashMax {
		_, n := utf8.DecodeLastRuneInString(msg)
		msg = msg[:len(msg)-n]
	}
	http.SetCookie(w, &http.Cookie{Name: flashCookie(kind), Value: base64.RawURLEncoding.EncodeToString([]byte(msg)),
		Path: "/", MaxAge: 120, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}

// takeFlash returns the message left for kind, and forgets it.
func takeFlash(w http.ResponseWriter, r *http.Request, kind string) string {
	c, err := r.Cookie(flashCookie(kind))
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{Name: flashCookie(kind), Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
	b, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil || !utf8.Valid(b) {
		return ""
	}
	return string(b)
}
