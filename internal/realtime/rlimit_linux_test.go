//go:build linux

package realtime

import (
	"syscall"
	"testing"
)

// raiseOpenFiles makes sure the process may open n descriptors, raising
// its limit (the hard one too, where the process may) if it must.
func raiseOpenFiles(t *testing.T, n int) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur >= uint64(n) {
		return
	}
	lim.Cur = uint64(n)
	lim.Max = max(lim.Max, uint64(n))
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatalf("%d open files needed: %v", n, err)
	}
}
