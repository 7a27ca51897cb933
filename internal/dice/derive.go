package dice

import (
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"strconv"
)

// Provable dice (docs/protocol.md, "Provable dice"). Every face of a
// command is derived from a secret seed the server committed to before the
// fight (its SHA-256 is published when the encounter starts), the entropy
// the command's sender contributed, and the face's position: the seq of the
// command's first event and the face's index among the command's faces. A
// command that is refused writes nothing, so the next command starts at the
// same seq: positions are never skipped, and a refusal cannot be used to
// roll again. When the encounter ends the seed is published, and anyone can
// recompute every face from the log.

// Seed is a 32-byte secret from which dice are derived.
type Seed [32]byte

// NewSeed returns a seed from the operating system's random source.
func NewSeed() Seed {
	var s Seed
	if _, err := crand.Read(s[:]); err != nil {
		panic("dice: no random source: " + err.Error()) // crypto/rand never fails on supported platforms
	}
	return s
}

// TestSeed returns the seed FRAY_DICE_SEED=n stands for: the same for every
// encounter, so that tests and demos are reproducible. Never for real play.
func TestSeed(n uint64) Seed {
	return sha256.Sum256([]byte("fray-dice-test-seed/v1:" + strconv.FormatUint(n, 10)))
}

// ParseSeed reads a seed written as 64 hexadecimal digits.
func ParseSeed(s string) (Seed, error) {
	var seed Seed
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(seed) {
		return seed, fmt.Errorf("a dice seed is 64 hexadecimal digits")
	}
	copy(seed[:], b)
	return seed, nil
}

// String is the seed as 64 lowercase hexadecimal digits.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Commitment is what the server publishes before the seed is used: the
// SHA-256 of its 32 bytes, in lowercase hexadecimal.
func (s Seed) Commitment() string {
	h := sha256.Sum256(s[:])
	return hex.EncodeToString(h[:])
}

// Epoch returns the seed of epoch e of an encounter whose server-side
// secret is master: HMAC-SHA256(master, "fray-dice-epoch/v1" || e as 4
// bytes, big-endian). An encounter rolls with epoch 0's seed until its end
// publishes it; if the GM then reopens it (rewind), play goes on with the
// next epoch's seed, committed to anew. master itself is never published.
func (master Seed) Epoch(e int) Seed {
	m := hmac.New(sha256.New, master[:])
	m.Write([]byte("fray-dice-epoch/v1"))
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(e))
	m.Write(n[:])
	var s Seed
	copy(s[:], m.Sum(nil))
	return s
}

// Position says where a command's faces come from: the seq of its first
// event (From), the seed epoch, and the entropy its sender contributed.
// It is recorded on every event that has dice as the event's "draw".
type Position struct {
	From    int64  `json:"from"`
	Epoch   int    `json:"epoch,omitempty"`
	Entropy string `json:"entropy,omitempty"`
}

// MaxEntropy is the longest entropy a command may contribute, in bytes.
const MaxEntropy = 64

// CheckEntropy validates a command's entropy: at most MaxEntropy letters,
// digits, '-' or '_' (hexadecimal or base64url text).
func CheckEntropy(e string) error {
	if len(e) > MaxEntropy || !entropyText(e) {
		return fmt.Errorf("entropy must be at most %d letters, digits, '-' or '_'", MaxEntropy)
	}
	return nil
}

// entropyText reports whether e is only letters, digits, '-' and '_'
// (checked on every command, twice: a loop, where a regular expression
// was most of reading a page's command).
func entropyText(e string) bool {
	for i := 0; i < len(e); i++ {
		switch c := e[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// diceLabel starts every face derivation's message.
const diceLabel = "fray-dice/v1"

// Deriver derives the faces of one command. It is not safe for concurrent
// use.
type Deriver struct {
	mac hash.Hash
	msg [len(diceLabel) + 8 + 4 + 4 + sha256.Size]byte
	out [sha256.Size]byte
}

// NewDeriver returns a Deriver of seed's faces at position p.
func NewDeriver(seed Seed, p Position) *Deriver {
	d := &Deriver{mac: hmac.New(sha256.New, seed[:])}
	copy(d.msg[:], diceLabel)
	d.moveTo(p)
	return d
}

// moveTo makes d derive the faces at position p, with the same seed (its
// keyed HMAC state is kept: a command's faces cost no new key schedule).
func (d *Deriver) moveTo(p Position) {
	n := len(diceLabel)
	binary.BigEndian.PutUint64(d.msg[n:], uint64(p.From))
	e := sha256.Sum256([]byte(p.Entropy))
	copy(d.msg[n+16:], e[:])
}

// Face derives face k (0 for the command's first) of a die with sides
// sides, without bias:
//
//	block b = HMAC-SHA256(seed, "fray-dice/v1" || From (8 bytes) || k (4) || b (4) || SHA-256(entropy))
//
// with integers big-endian; each block is read as eight 4-byte big-endian
// numbers u in turn, and the first u below 2³² − (2³² mod sides) gives the
// face 1 + (u mod sides). Blocks b = 0, 1, 2, … are used until one does.
func (d *Deriver) Face(k, sides int) int {
	if sides < 1 {
		panic(fmt.Sprintf("dice: a die of %d sides", sides))
	}
	n := uint64(sides)
	limit := (1 << 32) - (1<<32)%n
	at := len(diceLabel) + 8
	binary.BigEndian.PutUint32(d.msg[at:], uint32(k))
	for b := uint32(0); ; b++ {
		binary.BigEndian.PutUint32(d.msg[at+4:], b)
		d.mac.Reset()
		d.mac.Write(d.msg[:])
		out := d.mac.Sum(d.out[:0])
		for i := 0; i+4 <= len(out); i += 4 {
			if u := uint64(binary.BigEndian.Uint32(out[i:])); u < limit {
				return int(u%n) + 1
			}
		}
	}
}

// Derive is the face at position p, index k, of a die of sides sides
// rolled with seed (see Deriver.Face).
func Derive(seed Seed, p Position, k, sides int) int {
	return NewDeriver(seed, p).Face(k, sides)
}

// Derived is the Source of provable dice: each command's faces derived from
// the encounter's secret (see Seed.Epoch and Deriver.Face). Its Roller's
// Begin sets the command's position. It is not safe for concurrent use.
type Derived struct {
	master Seed
	epochs map[int]Seed
	cur    *Deriver // of epoch curEpoch's seed
	curEp  int
	k      int
}

// NewDerived returns provable dice derived from master, the encounter's
// server-side secret.
func NewDerived(master Seed) *Derived { return &Derived{master: master, epochs: map[int]Seed{}} }

// Seed returns the seed of epoch e.
func (s *Derived) Seed(e int) Seed {
	seed, ok := s.epochs[e]
	if !ok {
		seed = s.master.Epoch(e)
		s.epochs[e] = seed
	}
	return seed
}

// Begin starts a command's faces at position p.
func (s *Derived) Begin(p Position) {
	if s.cur == nil || s.curEp != p.Epoch {
		s.cur, s.curEp = NewDeriver(s.Seed(p.Epoch), p), p.Epoch
	} else {
		s.cur.moveTo(p)
	}
	s.k = 0
}

// Face implements Source: the next face of the command begun last.
func (s *Derived) Face(sides int) int {
	if s.cur == nil {
		panic("dice.Derived: Face before Begin")
	}
	f := s.cur.Face(s.k, sides)
	s.k++
	return f
}
