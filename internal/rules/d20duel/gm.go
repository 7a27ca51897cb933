package d20duel

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// GM commands. They name no actor and may be issued while decisions wait
// (engine.CommandSpec.WhileWaiting), for in a duel something nearly always
// does. Whatever a set-distance changes, the blows and maneuvers still to
// resolve check again when their turn comes.

// pairValue joins a pair's ids into one select value.
func pairValue(a, b string) string { return a + "+" + b }

// decideSetDistance engages two fighters at a distance, changes a pair's
// distance, or separates them.
func decideSetDistance(tx *Tx, cmd engine.Command) error {
	var args struct {
		Pair     string `json:"pair"`
		Distance string `json:"distance"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	a, b, ok := strings.Cut(args.Pair, "+")
	if !ok {
		return fray.Errorf(fray.EINVALID, "pair must name two combatants as a+b, not %q", args.Pair)
	}
	st := tx.State
	to := Apart
	if args.Distance != Apart {
		d, ok := parseDistance(args.Distance)
		if !ok || args.Distance == "" {
			return fray.Errorf(fray.EINVALID, "distance must be striking, grappling or apart, not %q", args.Distance)
		}
		to = d
	}
	e := st.engagement(a, b)
	if e == nil {
		if to == Apart {
			return fray.Errorf(fray.EILLEGAL, "%s and %s are not engaged", st.NameOf(a), st.NameOf(b))
		}
		if err := st.canPair(a, b); err != nil {
			return err
		}
		ev := engine.NewEvent(KindEngaged, "", fmt.Sprintf("The GM engages %s and %s at %s distance.", st.NameOf(a), st.NameOf(b), distanceLabels[to]),
			Engaged{A: a, B: b, Distance: to})
		return tx.Emit(ev.With(a, b))
	}
	if e.Distance == to {
		// The GM's ruling that the pair stays where it is: the form offers
		// every distance for every engaged pair.
		ev := engine.NewEvent(KindDistanceStays, "", fmt.Sprintf("The GM rules %s and %s stay at %s distance.", st.NameOf(a), st.NameOf(b), distanceLabels[to]),
			DistanceStays{A: e.A, B: e.B, Reason: "gm"})
		return tx.Emit(ev.With(a, b))
	}
	return changeDistance(tx, a, b, to, "gm", "the GM rules so")
}

// decideRollTest rolls a test for any fighter, at once: the GM's own
// fighters', or one a player asked for at the table.
func decideRollTest(tx *Tx, cmd engine.Command) error {
	var args testArgs
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	if _, err := tx.Named(args.Fighter); err != nil {
		return err
	}
	if err := args.check(); err != nil {
		return err
	}
	return rollAttempt(tx, args)
}
