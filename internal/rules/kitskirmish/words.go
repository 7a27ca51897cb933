package kitskirmish

// Words implements rules.Worded: the skirmish's terms, which no page,
// board or engine code may use.
func (Ruleset) Words() []string {
	return []string{"parry", "parries", "parried", "Take the blow"}
}
