// Package links makes and checks the links a notice carries, so a player
// acts from the notice: to a minimal page for one decision, or to their
// turn. A link names its user, its encounter, its decision ("" for a
// turn), the log position the notice was about and when it expires, and
// is signed with the server's key (HMAC-SHA256), so no one makes or
// changes one. That it was used once, that the decision is gone or the log
// moved past its position, the server checks when it is followed (see
// internal/server, act.go); a link's answer carries a command id derived
// from the link (CommandID), which the play service applies once per user.
package links

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// Link is what a signed link says.
type Link struct {
	User      string `json:"u"`
	Encounter string `json:"e"`
	// Decision is the decision's id; "" for a link to the user's turn.
	Decision string `json:"d,omitempty"`
	// Seq is the log position: the event the notice is about (the
	// decision opened, the turn started).
	Seq     int64 `json:"s"`
	Expires int64 `json:"x"` // Unix seconds
}

// Lifetime is how long a link works: a week, as long as a notice is kept.
const Lifetime = 7 * 24 * time.Hour

// MaxToken bounds a token's length, checked before anything is decoded.
const MaxToken = 512

// Signer signs and checks links with the server's key.
type Signer struct{ key []byte }

// NewKey makes a fresh signing key.
func NewKey() ([]byte, error) {
	k := make([]byte, 32)
	_, err := rand.Read(k)
	return k, err
}

// NewSigner signs with key (at least 32 bytes, kept by the server).
func NewSigner(key []byte) *Signer { return &Signer{key: key} }

var enc = base64.RawURLEncoding

// Sign returns l's token: its JSON and its signature, base64url, joined
// by a dot — a path segment of a URL as it is.
func (s *Signer) Sign(l Link) string {
	payload := enc.EncodeToString(mustJSON(l))
	return payload + "." + enc.EncodeToString(s.mac(payload))
}

func (s *Signer) mac(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("fray-link.v1."))
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// Verify checks token's signature and expiry at now and returns its link.
// A token that is not one of this server's answers not_found; an expired
// one illegal ("this link has expired").
func (s *Signer) Verify(token string, now time.Time) (Link, error) {
	var l Link
	bad := fray.Errorf(fray.ENOTFOUND, "this link is not valid")
	if len(token) > MaxToken {
		return l, bad
	}
	payload, sig, ok := strings.Cut(token, ".")
	if !ok {
		return l, bad
	}
	got, err := enc.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(payload)) {
		return l, bad
	}
	raw, err := enc.DecodeString(payload)
	if err != nil || strictjson.Decode(raw, &l) != nil || l.User == "" || l.Encounter == "" || l.Seq <= 0 {
		return Link{}, bad
	}
	if now.Unix() >= l.Expires {
		return Link{}, fray.Errorf(fray.EILLEGAL, "this link has expired")
	}
	return l, nil
}

// CommandID is the id of the command a link's answer is sent with: one
// per link, so a second use is recognised as the first (per user, as
// every command id is).
func CommandID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "link-" + hex.EncodeToString(sum[:12])
}

func mustJSON(l Link) []byte {
	raw, err := json.Marshal(l)
	if err != nil {
		panic("links: " + err.Error()) // strings and integers always encode
	}
	return raw
}
