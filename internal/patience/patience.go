// Package patience sizes how long a test waits before it calls something
// hung.
//
// A deadline in a test guards against a hang, never against slowness. On a
// loaded two-core machine — `go test ./...` runs the browser suites beside
// each other's PostgreSQL clusters and every other package — a sign-up
// through Chromium can take many times what it takes on a quiet machine
// without anything being wrong, and a test that fails then is a flake that
// costs a whole submission. So every wait in the tests takes its deadline
// from here: generous defaults, and one multiplier, FRAY_TEST_SLOW, for a
// machine slower still. A test fails on what it observes, not on the clock.
//
// Two kinds of wait are not deadlines and keep short windows of their own:
// looking for something that must not happen (a slow machine can only make
// such a test pass), and the durations a test hands to the code under test
// (a lease, a clock it moves). TestNoShortDeadlines tells the kinds apart
// by what the duration is passed to.
package patience

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// Hang is how long one step may take before a test calls it hung: a page
// load, a click and what it updates, a round trip to the server, a
// condition polled for, a message read from a socket. Every such deadline in
// the tests is at least this (TestNoShortDeadlines).
const hang = 3 * time.Minute

// Hang is the deadline of one step, scaled by FRAY_TEST_SLOW.
func Hang() time.Duration { return scaled(hang) }

// Slow is FRAY_TEST_SLOW: a factor (1 by default, ≥ 1) by which every
// deadline is multiplied, for a machine slower than a loaded two-core one.
func Slow() float64 {
	f, err := strconv.ParseFloat(os.Getenv("FRAY_TEST_SLOW"), 64)
	if err != nil || f < 1 {
		return 1
	}
	return f
}

func scaled(d time.Duration) time.Duration { return time.Duration(float64(d) * Slow()) }

// Context is parent with the deadline of one step.
func Context(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, Hang())
}

// Deadline is when a step started now is hung.
func Deadline() time.Time { return time.Now().Add(Hang()) }

// Until polls cond every few milliseconds until it holds, and fails t when
// it has not held for a whole step: what says what was awaited.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := Deadline()
	for pause := time.Millisecond; !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", Hang(), what)
		}
		time.Sleep(pause)
		if pause < 50*time.Millisecond {
			pause *= 2
		}
	}
}
