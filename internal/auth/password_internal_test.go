package auth

import (
	"testing"

	"golang.org/x/crypto/argon2"
)

// A login for a name that does not exist spends the very work a wrong
// password for an existing account does (the same argon2id parameters), so
// the answer's time does not tell which names exist. Compared by the work
// asked for, not by the clock: a busy machine makes timings say nothing.
func TestSpendPasswordCheck(t *testing.T) {
	type work struct {
		time, memory uint32
		threads      uint8
		keyLen       uint32
		saltLen      int
	}
	var calls []work
	argonKey = func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		calls = append(calls, work{time, memory, threads, keyLen, len(salt)})
		return argon2.IDKey(password, salt, 1, 8, 1, keyLen) // cheap: only the parameters are compared
	}
	t.Cleanup(func() { argonKey = argon2.IDKey })

	h, err := HashPassword("password123")
	if err != nil {
		t.Fatal(err)
	}
	calls = nil
	CheckPassword(h, "wrong password")
	SpendPasswordCheck("wrong password")
	if len(calls) != 2 || calls[0] != calls[1] {
		t.Fatalf("a check asked for %+v, spending one for an unknown name %+v", calls[:min(1, len(calls))], calls[min(1, len(calls)):])
	}
	if calls[0].memory != argonMemory || calls[0].time != argonTime {
		t.Fatalf("a check used %+v, not the current parameters", calls[0])
	}
}
