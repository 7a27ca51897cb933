package auth_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/auth"
	"github.com/fray-vtt/fray/internal/fray"
)

func wantInvalid(t *testing.T, err error) {
	t.Helper()
	if fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("%v: code %q, want %q", err, fray.ErrorCode(err), fray.EINVALID)
	}
}

func TestNewToken(t *testing.T) {
	seen := map[string]bool{}
	for _, prefix := range []string{"", "fray_pat_", "inv_"} {
		for range 50 {
			tok, hash := auth.NewToken(prefix)
			rest, ok := strings.CutPrefix(tok, prefix)
			if !ok || len(rest) != 43 {
				t.Fatalf("token %q: want %q and 43 characters", tok, prefix)
			}
			raw, err := base64.RawURLEncoding.Strict().DecodeString(rest)
			if err != nil || len(raw) != 32 {
				t.Fatalf("token %q: %d bytes, %v", tok, len(raw), err)
			}
			want := sha256.Sum256([]byte(tok))
			if !bytes.Equal(hash, want[:]) || !bytes.Equal(auth.HashToken(tok), hash) {
				t.Fatalf("token %q: hash %x, want %x", tok, hash, want)
			}
			if seen[rest] {
				t.Fatalf("token %q repeated", tok)
			}
			seen[rest] = true
		}
	}
	// The prefix is part of what is hashed.
	tok, _ := auth.NewToken("a_")
	if bytes.Equal(auth.HashToken(tok), auth.HashToken("b_"+tok[2:])) {
		t.Fatal("the prefix does not change the hash")
	}
	if len(auth.HashToken("")) != 32 {
		t.Fatal("hash is not 32 bytes")
	}
}
