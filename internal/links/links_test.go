package links

import (
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
)

// A link verifies as it was signed, until it expires; a link changed in
// any way, signed with another key, too long, or whose signed payload is
// not exactly a link's fields is not one (not_found); an expired one is
// illegal. Each link's command id is its own.
func TestLinksVerifyAsSignedOnly(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	l := Link{User: "u1", Encounter: "e1", Decision: "d7", Seq: 42, Expires: now.Add(time.Hour).Unix()}
	token := s.Sign(l)
	got, err := s.Verify(token, now)
	if err != nil || got != l {
		t.Fatalf("verify: %+v %v", got, err)
	}
	turn := Link{User: "u1", Encounter: "e1", Seq: 40, Expires: l.Expires}
	if got, err := s.Verify(s.Sign(turn), now); err != nil || got != turn {
		t.Fatalf("a turn's link: %+v %v", got, err)
	}
	if _, err := s.Verify(token, now.Add(time.Hour)); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("expired: %v", err)
	}
	payload, sig, _ := strings.Cut(token, ".")
	other := NewSigner([]byte("another key, another key, another"))
	forged := s.Sign(Link{User: "u2", Encounter: "e1", Decision: "d7", Seq: 42, Expires: l.Expires})
	forgedPayload, _, _ := strings.Cut(forged, ".")
	for name, bad := range map[string]string{
		"another key":            other.Sign(l),
		"another user's payload": forgedPayload + "." + sig,
		"no signature":           payload,
		"a cut signature":        payload + "." + sig[:len(sig)-2],
		"too long":               token + strings.Repeat("A", MaxToken),
		"not base64":             "!!!." + sig,
		"extra field":            signed(s, `{"u":"u1","e":"e1","d":"d7","s":42,"x":1800003600,"admin":true}`),
		"two values":             signed(s, `{"u":"u1","e":"e1","s":42,"x":1800003600}{}`),
		"no user":                signed(s, `{"e":"e1","s":42,"x":1800003600}`),
		"no position":            signed(s, `{"u":"u1","e":"e1","x":1800003600}`),
	} {
		if _, err := s.Verify(bad, now); fray.ErrorCode(err) != fray.ENOTFOUND {
			t.Errorf("%s: %v, want not_found", name, err)
		}
	}
	if CommandID(token) == CommandID(forged) || CommandID(token) != CommandID(token) || !strings.HasPrefix(CommandID(token), "link-") {
		t.Fatalf("command ids: %s %s", CommandID(token), CommandID(forged))
	}
}

func signed(s *Signer, payload string) string {
	p := enc.EncodeToString([]byte(payload))
	return p + "." + enc.EncodeToString(s.mac(p))
}
