package d20duel

// Words implements rules.Worded: the duel's terms, which no page, board or
// engine code may use.
func (Ruleset) Words() []string {
	return []string{"stance", "stances", "Find Weakness", "Defensive Guard", "black die", "white die", "Striking",
		"Grappling", "maneuver", "maneuvers", "Immobilize"}
}
