// Package proof is what anyone can check of an encounter's history
// (docs/protocol.md, "Checking a history"): the hash chain that links its
// events, the provable dice, and an export holding both. It is pure and
// imports nothing of the server but the dice derivation, so that it reads
// like the third-party verifier it stands for.
package proof

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"sync"
)

// The chain. Every event of an encounter has
//
//	salt    16 random bytes, drawn when the event is appended
//	digest  SHA-256(salt || Canonical(event JSON))
//	link    SHA-256(previous link || seq as 8 bytes, big-endian || digest)
//
// where the previous link of event 1 is the encounter's genesis,
// SHA-256("fray-chain/v1" || the encounter's id as text). The link of the
// last event is the chain's head: it fixes every event before it, their
// order and their number.
//
// A viewer who may not see an event whole (a secret, a redacted event) is
// given its digest only: the chain still links, and the salt keeps the
// digest of a short secret ("stance: reckless") from being guessed by
// hashing every possible event.

// Hash is a SHA-256 value.
type Hash [sha256.Size]byte

// String is the hash in lowercase hexadecimal.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// Short is the hash's first 12 hexadecimal digits: the fingerprint pages
// show.
func (h Hash) Short() string { return h.String()[:12] }

// IsZero reports whether h is unset.
func (h Hash) IsZero() bool { return h == Hash{} }

// ParseHash reads a hash written as 64 hexadecimal digits.
func ParseHash(s string) (Hash, error) {
	var h Hash
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("%q is not a SHA-256 hash in hexadecimal", s)
	}
	copy(h[:], b)
	return h, nil
}

// HashFrom copies a hash out of b (32 bytes, as stored); a zero Hash when
// b is empty.
func HashFrom(b []byte) (Hash, error) {
	var h Hash
	if len(b) == 0 {
		return h, nil
	}
	if len(b) != len(h) {
		return h, fmt.Errorf("a hash of %d bytes", len(b))
	}
	copy(h[:], b)
	return h, nil
}

// SaltSize is the length of an event's salt.
const SaltSize = 16

// Salt is an event's salt.
type Salt [SaltSize]byte

// NewSalts returns n fresh salts.
func NewSalts(n int) []Salt {
	s := make([]Salt, n)
	buf := make([]byte, n*SaltSize)
	if _, err := rand.Read(buf); err != nil {
		panic("proof: no random source: " + err.Error())
	}
	for i := range s {
		copy(s[i][:], buf[i*SaltSize:])
	}
	return s
}

// Genesis is the link before an encounter's first event.
func Genesis(encounterID string) Hash {
	return sha256.Sum256([]byte("fray-chain/v1" + encounterID))
}

// Digest is an event's digest: SHA-256(salt || Canonical(body)).
func Digest(salt Salt, body []byte) (Hash, error) {
	var dg digester
	return dg.digest(salt, body)
}

// digester computes digests, keeping its canonical form's buffers and its
// hash from one event to the next.
type digester struct {
	c canon
	h hash.Hash
}

func (dg *digester) digest(salt Salt, body []byte) (Hash, error) {
	canon, err := dg.c.canonical(body)
	if err != nil {
		return Hash{}, err
	}
	if dg.h == nil {
		dg.h = sha256.New()
	} else {
		dg.h.Reset()
	}
	dg.h.Write(salt[:])
	dg.h.Write(canon)
	var d Hash
	dg.h.Sum(d[:0])
	return d, nil
}

// digesters keeps digesters between commands: a command's events are put
// in canonical form in buffers grown by earlier commands.
var digesters = sync.Pool{New: func() any { return new(digester) }}

// Link is event seq's link, given the previous link and its digest.
func Link(prev Hash, seq int64, digest Hash) Hash {
	var buf [sha256.Size + 8 + sha256.Size]byte
	copy(buf[:], prev[:])
	binary.BigEndian.PutUint64(buf[sha256.Size:], uint64(seq))
	copy(buf[sha256.Size+8:], digest[:])
	return sha256.Sum256(buf[:])
}

// Sealed is what the chain keeps of one event.
type Sealed struct {
	Seq    int64
	Salt   Salt
	Digest Hash
	Link   Hash
}

// Extend chains events after prev, the link of the event before the first
// (Genesis for event 1): bodies[i] is event first+i's JSON.
func Extend(prev Hash, first int64, bodies [][]byte) ([]Sealed, error) {
	out := make([]Sealed, len(bodies))
	salts := NewSalts(len(bodies))
	dg := digesters.Get().(*digester)
	defer digesters.Put(dg)
	for i, body := range bodies {
		seq := first + int64(i)
		d, err := dg.digest(salts[i], body)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", seq, err)
		}
		prev = Link(prev, seq, d)
		out[i] = Sealed{Seq: seq, Salt: salts[i], Digest: d, Link: prev}
	}
	return out, nil
}
