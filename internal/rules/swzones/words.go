package swzones

// Words implements rules.Worded: Savage Worlds' terms, which no page,
// board or engine code may use.
func (Ruleset) Words() []string {
	return []string{"Savage Worlds", "Benny", "Bennies", "Shaken", "Wild Card", "Wild Cards", "Wild Die", "raise", "raises",
		"Parry", "Toughness", "Soak", "Joker", "action card", "action cards", "The Drop", "garrotte", "gang-up",
		"Bleeding Out", "Vigor", "Smarts"}
}
