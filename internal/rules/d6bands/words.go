package d6bands

// Words implements rules.Worded: d6-bands' terms, which no page, board or
// engine code may use.
func (Ruleset) Words() []string {
	return []string{"Defense Pool", "range band", "range bands", "stray shot", "stray shots", "open-ended",
		"Extreme range", "blood loss", "Blood lost"}
}
