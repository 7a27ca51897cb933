// Package rules gathers Fray's rulesets.
package rules

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/d20duel"
	"github.com/fray-vtt/fray/internal/rules/d20tactical"
	"github.com/fray-vtt/fray/internal/rules/d20under"
	"github.com/fray-vtt/fray/internal/rules/d6bands"
	"github.com/fray-vtt/fray/internal/rules/kitskirmish"
	"github.com/fray-vtt/fray/internal/rules/swzones"
)

// Worded is implemented by a ruleset that names the words it owns beyond
// its command kinds and option names: its conditions, resources and game
// terms ("Shaken", "Bennies", "Wild Card"). No package but the ruleset's
// may use a ruleset's words — not the engine, the boards, the pages, the
// server or play; TestNoRulesetWordOutsideItsPackage holds them to it.
type Worded interface {
	Words() []string
}

// Registry returns a registry of every ruleset Fray ships, for the server
// and the tools that import encounters. A ruleset Fray ships is one line
// here.
func Registry() *engine.Registry {
	return engine.NewRegistry(
		d20duel.New(),
		d20tactical.New(),
		d20under.New(),
		d6bands.New(),
		kitskirmish.New(),
		swzones.New(),
	)
}
