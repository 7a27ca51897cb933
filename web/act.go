package web

import "github.com/fray-vtt/fray/internal/engine"

// ActProps is the decision page a notice's link opens: Title names the
// encounter; Decision is the one question as the viewer's projection
// holds it, answered by posting to PostURL; or Done says it was answered,
// or Problem why the link cannot be used (used, for another account, out
// of date, the decision gone). TableURL opens the encounter's page,
// OrdersURL the player's standing orders.
type ActProps struct {
	Title         string
	Decision      engine.Decision
	PostURL       string
	Done, Problem string
	TableURL      string
	OrdersURL     string
	Clock         *ActClock
}

// ActClock is the time left before the decision's player's standing
// orders and the fallback answer it: Kind "clock" or "deadline", Name the
// character, Remaining milliseconds, Text the same as words.
type ActClock struct {
	Kind, Name, Text string
	Remaining        int64
}
