package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The garbage collector's target, unless $GOGC says otherwise.
//
// Most of what a command allocates (its projections, frames, copies) is
// garbage a moment later and the live heap is small, so collecting at 4×
// the live heap rather than 2× costs tens of MiB and saves about a sixth of
// the server's CPU per command (docs/performance.md, Memory).
// But 4× is a price in memory that grows with what is live: 10,000 idle
// page sockets hold ≈ 75 MiB, and at 400 % the process would grow to
// ≈ 375 MiB before collecting. So the target is 400 % only while the
// garbage it lets pile up stays under gcHeadroom; beyond that it falls,
// with the live heap, to 100 % (Go's default) and no lower.
const (
	gcMaxPercent = 400
	gcMinPercent = 100
	gcHeadroom   = 96 << 20
)

// gcPercentFor is the collector target for a heap whose roots and live
// objects (what the collector counts toward its next goal since Go 1.18:
// the live heap, goroutine stacks and globals) come to live bytes.
func gcPercentFor(live uint64) int {
	if live == 0 {
		return gcMaxPercent
	}
	p := int(gcHeadroom * 100 / live)
	return min(gcMaxPercent, max(gcMinPercent, p))
}

// tuneGC keeps the collector's target at gcPercentFor of what is live,
// checking after every collection (a finalizer runs once per cycle that
// finds its object unreachable).
func tuneGC() {
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/scan/stack:bytes"},
		{Name: "/gc/scan/globals:bytes"},
	}
	current := gcMaxPercent
	debug.SetGCPercent(current)
	var arm func()
	arm = func() {
		sentinel := new([16]byte) // not tiny-allocated: the finalizer runs
		runtime.SetFinalizer(sentinel, func(*[16]byte) {
			metrics.Read(samples)
			var live uint64
			for _, s := range samples {
				if s.Value.Kind() == metrics.KindUint64 {
					live += s.Value.Uint64()
				}
			}
			// Moved only by a tenth or more: setting it is not free.
			if p := gcPercentFor(live); p*10 < current*9 || p*10 > current*11 {
				current = p
				debug.SetGCPercent(p)
			}
			arm()
		})
	}
	arm()
}
