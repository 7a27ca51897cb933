package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// tokenBytes is the randomness of a token: 256 bits.
const tokenBytes = 32

// NewToken returns a new random token, prefix followed by 32 random bytes in
// unpadded base64url (43 characters), and its hash ([HashToken]), which is
// all the server stores. The prefix (such as "fray_pat_") only tells tokens
// apart for people and secret scanners.
func NewToken(prefix string) (token string, hash []byte) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		panic("auth.NewToken: " + err.Error()) // crypto/rand does not fail on supported platforms
	}
	token = prefix + base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken returns the SHA-256 of the whole token, prefix included: the key
// the store looks tokens up by. A fast hash is enough because tokens have
// 256 bits of randomness, unlike passwords.
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
