package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/fray-vtt/fray/internal/deadlines"
)

// hooks are what a test that runs the server in-process (main_test.go)
// gives it through run's context: a clock it moves, and the deadlines
// worker, to tick it in step with that clock. Production has none.
type hooks struct {
	now    func() time.Time
	worker func(*deadlines.Worker)
}

type hooksKey struct{}

// withHooks is ctx carrying h for serve.
func withHooks(ctx context.Context, h hooks) context.Context {
	return context.WithValue(ctx, hooksKey{}, h)
}

func hooksFrom(ctx context.Context) hooks {
	h, _ := ctx.Value(hooksKey{}).(hooks)
	return h
}

// speedEpoch is where a sped-up clock (FRAY_CLOCK_SPEED) starts counting:
// the start of the day the process started, so a server restarted the
// same day goes on from the same time (and a day's nanoseconds, sped up
// 100000 times, still fit a time.Duration).
var speedEpoch = time.Now().UTC().Truncate(24 * time.Hour)

// clockOf is the clock deadlines and clocks run on: a test's, a sped-up
// one (FRAY_CLOCK_SPEED, tests that kill a server process: every real
// second counts as that many), or the real one.
func clockOf(cfg config, h hooks) func() time.Time {
	switch {
	case h.now != nil:
		return h.now
	case cfg.ClockSpeed > 1:
		speed := time.Duration(cfg.ClockSpeed)
		return func() time.Time { return speedEpoch.Add(time.Since(speedEpoch) * speed) }
	}
	return time.Now
}

// clockSpeed reads FRAY_CLOCK_SPEED: a whole number from 1 to 100000.
func clockSpeed(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 100000 {
		return 0, fmt.Errorf("FRAY_CLOCK_SPEED must be a whole number from 1 to 100000, not %q", v)
	}
	return n, nil
}
