// Package auth holds the server's account primitives: password hashing
// (argon2id), validation of names and passwords, and random tokens for
// sessions, API tokens and invites (stored only as their SHA-256). It keeps
// no state: internal/store persists accounts and the rate limits shared by
// every server instance.
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters of new hashes.
//
// m=19 MiB, t=2, p=1 is OWASP's baseline for argon2id. The server is sized
// for two cores: one hash takes about 20 ms of one core (measured on a
// 2-core machine) and 19 MiB, so a burst of logins cannot starve the game
// loop or memory for long; concurrent hashes are also capped at GOMAXPROCS
// (see hashSlots) and logins are rate limited.
// Raising memory is the better lever than time if the hardware grows;
// [NeedsRehash] then tells which stored hashes to upgrade at the next login.
const (
	argonMemory  = 19 * 1024 // KiB
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// Limits on hashes read back, so a corrupt or hostile stored hash cannot make
// a check take gigabytes or minutes.
const (
	maxMemory  = 256 * 1024 // KiB
	maxTime    = 16
	maxThreads = 16
)

// hashSlots bounds the hashes computed at once: each takes a core (p=1) and
// argonMemory, so running more than there are cores only adds memory.
var hashSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))

// argonKey derives a key; a test replaces it to see what a call costs.
var argonKey = argon2.IDKey

func idKey(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	return argonKey(password, salt, time, memory, threads, keyLen)
}

var b64 = base64.RawStdEncoding.Strict() // PHC strings use unpadded standard base64

// HashPassword hashes password with argon2id and a fresh 16-byte random
// salt, in the PHC string form
// "$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>".
func HashPassword(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("auth: salt: %w", err)
	}
	key := idKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether password matches encoded, a hash made by
// [HashPassword] (with these or other parameters within sane bounds). The
// comparison takes constant time; a malformed hash matches nothing.
func CheckPassword(encoded, password string) bool {
	p, ok := parseHash(encoded)
	if !ok {
		return false
	}
	key := idKey([]byte(password), p.salt, p.time, p.memory, p.threads, uint32(len(p.key)))
	return subtle.ConstantTimeCompare(key, p.key) == 1
}

// NeedsRehash reports whether encoded was made with other parameters than
// [HashPassword] uses now (or is malformed): after a successful login, hash
// the password again and store the new hash.
func NeedsRehash(encoded string) bool {
	p, ok := parseHash(encoded)
	return !ok || p.memory != argonMemory || p.time != argonTime || p.threads != argonThreads ||
		len(p.salt) != argonSaltLen || len(p.key) != argonKeyLen
}

// The work SpendPasswordCheck does: a check against this salt and key.
var (
	dummySalt = make([]byte, argonSaltLen)
	dummyKey  = make([]byte, argonKeyLen)
)

// SpendPasswordCheck does the work of checking password against a hash with
// the current parameters, and throws the result away. Call it when the user
// named at login does not exist, so the response takes as long as for a
// wrong password and does not reveal which names exist.
func SpendPasswordCheck(password string) {
	key := idKey([]byte(password), dummySalt, argonTime, argonMemory, argonThreads, argonKeyLen)
	subtle.ConstantTimeCompare(key, dummyKey)
}

type hashParams struct {
	memory, time uint32
	threads      uint8
	salt, key    []byte
}

// parseHash parses "$argon2id$v=19$m=M,t=T,p=P$salt$key".
func parseHash(encoded string) (hashParams, bool) {
	var p hashParams
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return p, false
	}
	params := strings.Split(parts[3], ",")
	if len(params) != 3 {
		return p, false
	}
	m, ok1 := param(params[0], "m=", maxMemory)
	t, ok2 := param(params[1], "t=", maxTime)
	th, ok3 := param(params[2], "p=", maxThreads)
	if !ok1 || !ok2 || !ok3 || m < 8*th {
		return p, false
	}
	p.memory, p.time, p.threads = m, t, uint8(th)
	var err error
	if p.salt, err = b64.DecodeString(parts[4]); err != nil || len(p.salt) < 8 || len(p.salt) > 64 {
		return p, false
	}
	if p.key, err = b64.DecodeString(parts[5]); err != nil || len(p.key) < 16 || len(p.key) > 64 {
		return p, false
	}
	return p, true
}

// param parses "<prefix><n>" with 1 <= n <= limit.
func param(s, prefix string, limit uint32) (uint32, bool) {
	digits, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, 10, 32)
	if err != nil || n < 1 || n > uint64(limit) {
		return 0, false
	}
	return uint32(n), true
}
