package d20under

// Words implements rules.Worded: Symbaroum's terms, which no page, board
// or engine code may use.
func (Ruleset) Words() []string {
	return []string{"Symbaroum", "Corruption", "Pain Threshold", "second chance", "second chances", "Critical Damage",
		"death test", "death tests", "abomination", "Toughness", "Quick Strike", "free attack", "free attacks",
		"Koj", "Steely Gaze"}
}
