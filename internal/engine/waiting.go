package engine

import "slices"

// GM rulings while decisions wait.
//
// A pending decision holds up every command but answers, so that nothing
// changes under the work parked behind it. Some GM commands change nothing
// that work depends on — a secret count, an aside roll, a ruling the
// ruleset reads later — and a fight that is a chain of decisions (sealed
// choices, then moves, then the next sealed choices) would otherwise never
// give the GM a moment for them. A ruleset declares such a command with
// CommandSpec{GM: true, WhileWaiting: true}; the engine then accepts it
// while decisions wait and keeps offering it among the GM's actions. The
// ruleset must leave the pending decisions alone and re-check, in the
// steps that resume later, whatever the command may have changed.

// whileWaiting reports whether the command may be issued while decisions
// wait: only a GM command declared so.
func (s CommandSpec) whileWaiting() bool { return s.GM && s.WhileWaiting }

// rulesetActions are the ruleset's actions for v: all of them while no
// decision waits; while one does, only the GM commands declared
// WhileWaiting.
func rulesetActions(rs Ruleset, st State, v Viewer) []Action {
	actions := rs.Actions(st, v)
	if !st.Core().Waiting() {
		return actions
	}
	return slices.DeleteFunc(actions, func(a Action) bool {
		spec, ok := Spec(rs, a.Kind)
		return !ok || !spec.whileWaiting() || a.Actor != ""
	})
}
