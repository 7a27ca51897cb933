package web

import "github.com/fray-vtt/fray/internal/engine"

// OrdersProps is a player's standing orders page for one encounter:
// its ruleset's prompts and, for each of the player's characters in it,
// their orders, posted to PostURL.
type OrdersProps struct {
	EncounterName, EncounterURL string
	RulesetTitle                string
	PostURL                     string
	Prompts                     []engine.PromptSpec
	Characters                  []OrdersCharacter
	Notice, Error               string
}

// OrdersCharacter is one character's orders.
type OrdersCharacter struct {
	ID, Name string
	Away     bool
	Orders   engine.StandingOrders
}
