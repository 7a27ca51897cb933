package auth_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/crypto/argon2"

	"github.com/fray-vtt/fray/internal/auth"
)

func TestHashAndCheck(t *testing.T) {
	const password = "correct horse battery staple"
	h, err := auth.HashPassword(password)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q", h)
	}
	parts := strings.Split(h, "$")
	if len(parts) != 6 {
		t.Fatalf("hash %q has %d parts", h, len(parts))
	}
	if salt, err := base64.RawStdEncoding.DecodeString(parts[4]); err != nil || len(salt) != 16 {
		t.Fatalf("salt %q: %d bytes, %v", parts[4], len(salt), err)
	}
	if key, err := base64.RawStdEncoding.DecodeString(parts[5]); err != nil || len(key) != 32 {
		t.Fatalf("key %q: %d bytes, %v", parts[5], len(key), err)
	}
	if auth.NeedsRehash(h) {
		t.Error("a fresh hash needs rehashing")
	}

	for _, tc := range []struct {
		password string
		ok       bool
	}{
		{password, true},
		{"correct horse battery stapl", false},
		{"Correct horse battery staple", false},
		{password + " ", false},
		{"", false},
	} {
		if got := auth.CheckPassword(h, tc.password); got != tc.ok {
			t.Errorf("CheckPassword(%q) = %v, want %v", tc.password, got, tc.ok)
		}
	}

	// Same password, different salts, different hashes; both check.
	h2, err := auth.HashPassword(password)
	if err != nil {
		t.Fatal(err)
	}
	if h2 == h || strings.Split(h2, "$")[4] == parts[4] {
		t.Fatalf("two hashes share a salt: %q, %q", h, h2)
	}
	if !auth.CheckPassword(h2, password) {
		t.Fatal("second hash does not check")
	}
	// An empty password hashes and checks too (validation is separate).
	he, err := auth.HashPassword("")
	if err != nil || !auth.CheckPassword(he, "") || auth.CheckPassword(he, " ") {
		t.Fatalf("empty password: %q, %v", he, err)
	}
}

// Hashes made with other parameters (within bounds) still check, and ask to
// be rehashed; changing a hash's parameters breaks it.
func TestCheckOtherParameters(t *testing.T) {
	salt := []byte("sixteen byte slt")
	key := argon2.IDKey([]byte("password"), salt, 1, 64, 2, 24)
	enc := base64.RawStdEncoding
	h := "$argon2id$v=19$m=64,t=1,p=2$" + enc.EncodeToString(salt) + "$" + enc.EncodeToString(key)
	if !auth.CheckPassword(h, "password") {
		t.Fatalf("%q does not check", h)
	}
	if auth.CheckPassword(h, "passwore") {
		t.Fatalf("%q checks a wrong password", h)
	}
	if !auth.NeedsRehash(h) {
		t.Fatal("a hash with other parameters does not need rehashing")
	}
	for _, params := range []string{"m=64,t=2,p=2", "m=128,t=1,p=2", "m=64,t=1,p=1"} {
		if forged := strings.Replace(h, "m=64,t=1,p=2", params, 1); auth.CheckPassword(forged, "password") {
			t.Errorf("%q checks", forged)
		}
	}
}

func TestCheckMalformed(t *testing.T) {
	h, err := auth.HashPassword("password123")
	if err != nil {
		t.Fatal(err)
	}
	p := strings.Split(h, "$")
	join := func(parts ...string) string { return strings.Join(parts, "$") }
	for _, tc := range []struct{ what, hash string }{
		{"empty", ""},
		{"garbage", "not a hash"},
		{"bcrypt", "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"},
		{"argon2i", join("", "argon2i", p[2], p[3], p[4], p[5])},
		{"argon2d", join("", "argon2d", p[2], p[3], p[4], p[5])},
		{"old version", join("", p[1], "v=16", p[3], p[4], p[5])},
		{"no version", join("", p[1], p[3], p[4], p[5])},
		{"params reordered", join("", p[1], p[2], "t=2,m=19456,p=1", p[4], p[5])},
		{"missing param", join("", p[1], p[2], "m=19456,t=2", p[4], p[5])},
		{"zero time", join("", p[1], p[2], "m=19456,t=0,p=1", p[4], p[5])},
		{"zero threads", join("", p[1], p[2], "m=19456,t=2,p=0", p[4], p[5])},
		{"signed param", join("", p[1], p[2], "m=+19456,t=2,p=1", p[4], p[5])},
		{"memory below 8p", join("", p[1], p[2], "m=7,t=2,p=1", p[4], p[5])},
		{"huge memory", join("", p[1], p[2], "m=4194304,t=2,p=1", p[4], p[5])},
		{"huge time", join("", p[1], p[2], "m=19456,t=1000000,p=1", p[4], p[5])},
		{"huge threads", join("", p[1], p[2], "m=19456,t=2,p=255", p[4], p[5])},
		{"bad salt", join("", p[1], p[2], p[3], "!!!!", p[5])},
		{"short salt", join("", p[1], p[2], p[3], "c2FsdA", p[5])},
		{"padded key", join("", p[1], p[2], p[3], p[4], p[5]+"=")},
		{"short key", join("", p[1], p[2], p[3], p[4], p[5][:10])},
		{"empty key", join("", p[1], p[2], p[3], p[4], "")},
		{"extra part", h + "$"},
		{"leading text", "x" + h},
	} {
		if auth.CheckPassword(tc.hash, "password123") {
			t.Errorf("%s: %q checks", tc.what, tc.hash)
		}
		if !auth.NeedsRehash(tc.hash) {
			t.Errorf("%s: %q does not need rehashing", tc.what, tc.hash)
		}
	}
	if !auth.CheckPassword(h, "password123") {
		t.Fatal("the original hash does not check")
	}
}

func TestValidatePassword(t *testing.T) {
	for _, tc := range []struct {
		password, name string
		ok             bool
	}{
		{"", "ann", false},
		{"123456789", "ann", false},
		{"correct horse battery", "ann", true},
		{"ééééééééé", "ann", false}, // 9 characters, 18 bytes
		{"éàéàçéàéàü", "ann", true},
		{strings.Repeat("xy-z", 50), "ann", false}, // a few characters repeated
		{"lamp tiger " + strings.Repeat("é", 189), "ann", true},
		{"lamp tiger " + strings.Repeat("é", 190), "ann", false}, // 201 characters
		{"abcdefghij\xff", "ann", false},
		{"spaces are fine here", "ann", true},
		// Control characters.
		{strings.Repeat("\x00", 10), "ann", false},
		{"tab\there and more", "ann", false},
		{"line\nbreak and more", "ann", false},
		{"delete\x7f and more", "ann", false},
		// One character or a few, repeated; runs.
		{"aaaaaaaaaaaa", "ann", false},
		{"éééééééééé", "ann", false},
		{strings.Repeat("x", 200), "ann", false},
		{"abababababab", "ann", false},
		{"abcabcabcabc", "ann", false},
		{"abcdefghijkl", "ann", false},
		{"9876543210", "ann", false},
		// The user's name.
		{"gamemastergamemaster", "gamemaster", false},
		{"xxGameMaster-the-great", "gamemaster", false},
		{"Zephyr.Lantern-42", "ann", true},
		// Common and breached passwords, whatever the case, with digits and
		// punctuation after.
		{"1234567890", "ann", false},
		{"qwertyuiop", "ann", false},
		{"Password2024!", "ann", false},
		{"Baseball12345", "ann", false},
		{"trustno1trustno1", "ann", true}, // a list entry repeated is not on the list
		{"fray12345678", "ann", false},
	} {
		err := auth.ValidatePassword(tc.password, tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ValidatePassword(%q, %q) = %v, want ok %v", tc.password, tc.name, err, tc.ok)
		}
		if err != nil {
			wantInvalid(t, err)
		}
	}
	if msg := auth.ValidatePassword("short", "ann").Error(); !strings.Contains(msg, "10") || !strings.Contains(msg, "200") {
		t.Errorf("message %q does not give the lengths", msg)
	}
	for _, tc := range []struct{ password, name, says string }{
		{"aaaaaaaaaaaa", "ann", "repeated"},
		{"annann-annann", "ann", "your name"},
		{"Password2024!", "ann", "commonly used"},
		{"ten\x00nulls-here", "ann", "control characters"},
	} {
		if msg := fmt.Sprint(auth.ValidatePassword(tc.password, tc.name)); !strings.Contains(msg, tc.says) {
			t.Errorf("ValidatePassword(%q): message %q does not say %q", tc.password, msg, tc.says)
		}
	}
}

func TestCommonPasswordList(t *testing.T) {
	for _, p := range []string{"password", "PASSWORD", "dragon", "letmein", "iloveyou", "football", "monkey", "1q2w3e4r5t", "qwerty123456"} {
		if !auth.IsCommonPassword(p) {
			t.Errorf("%q is not on the list", p)
		}
	}
	for _, p := range []string{"Zephyr.Lantern-42", "correct horse battery", "violet-otter-mosaic"} {
		if auth.IsCommonPassword(p) {
			t.Errorf("%q is on the list", p)
		}
	}
}

func TestValidateName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"ann", true},
		{"an", false},
		{"", false},
		{"Ann.Lee_2-x", true},
		{strings.Repeat("a", 32), true},
		{strings.Repeat("a", 33), false},
		{"ann lee", false},
		{" ann", false},
		{"ann@home", false},
		{"anné", false},
		{"аnn", false}, // Cyrillic а
		{"ann\x00", false},
		{"../x", false},
		{"...", true},
		{"---", true},
	} {
		err := auth.ValidateName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
		if err != nil {
			wantInvalid(t, err)
		}
	}
}
