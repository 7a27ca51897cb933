package main

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/patience"
)

func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 400},
		{8 << 20, 400},        // a small live heap: the full 400 %
		{24 << 20, 400},       // 96 MiB of garbage is exactly 400 % of it
		{32 << 20, 300},       // beyond, the garbage stays at 96 MiB
		{64 << 20, 150},       //
		{96 << 20, 100},       // down to Go's default…
		{1 << 30, 100},        // …and no lower
		{75 << 20, 128},       // 10,000 idle page sockets
		{(96 << 20) / 3, 300}, //
	} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

// TestGCTargetFollowsTheLiveHeap runs the tuner in a child process (it
// changes the collector of the whole process): with 64 MiB live the target
// falls from 400 % to about 150 %, and when that is garbage it is 400 %
// again.
func TestGCTargetFollowsTheLiveHeap(t *testing.T) {
	if os.Getenv("FRAY_GC_CHILD") == "1" {
		gcChild()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGCTargetFollowsTheLiveHeap$")
	cmd.Env = append(os.Environ(), "FRAY_GC_CHILD=1", "GOGC=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var got []int
	for _, f := range strings.Fields(string(out)) {
		if p, ok := strings.CutPrefix(f, "percent="); ok {
			n, _ := strconv.Atoi(p)
			got = append(got, n)
		}
	}
	if len(got) != 3 {
		t.Fatalf("child said %q", out)
	}
	if got[0] != 400 || got[1] < 130 || got[1] > 170 || got[2] != 400 {
		t.Errorf("collector targets idle, with 64 MiB live, after: %v; want 400, ≈150, 400", got)
	}
}

// gcChild prints the collector's target with little live, with 64 MiB
// live, and once that is garbage again.
func gcChild() {
	percent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	settle := func(want func(int) bool) int {
		deadline := patience.Deadline()
		for {
			runtime.GC()
			if p := percent(); want(p) || time.Now().After(deadline) {
				return p
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	tuneGC()
	idle := settle(func(p int) bool { return p == 400 })
	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	held := settle(func(p int) bool { return p < 400 })
	runtime.KeepAlive(live)
	live = nil
	after := settle(func(p int) bool { return p == 400 })
	println("percent="+strconv.Itoa(idle), "percent="+strconv.Itoa(held), "percent="+strconv.Itoa(after))
}
