package d20tactical

// Words implements rules.Worded: d20 Modern's terms, which no page, board
// or engine code may use.
func (Ruleset) Words() []string {
	return []string{"d20 Modern", "posture", "postures", "crouched", "crouching", "flat-footed", "Life Points",
		"Armour Points", "attack of opportunity", "attacks of opportunity", "Dodge", "massive damage", "Fortitude",
		"Treat Injury"}
}
